package io.watchgate.authz.rbac;

import io.quarkus.runtime.StartupEvent;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.CommitListener;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Keeps the policy current: reads the four RBAC types at start, then applies each committed event of them as the
 * store installs it. The store tells its listeners under the commit lock before it completes the writer's future
 * (in durable mode, once the log has synced), so a binding is in force when its create is acknowledged and out of
 * force when its delete is. Applying an event costs one object's parse and a chunk's copy, no I/O.
 */
@ApplicationScoped
public class PolicyFeed {

    /** Users whose compiled rules are kept per policy snapshot. */
    static final int USERS_CACHED = 4096;

    private final Store store;
    private final int usersCached;
    private final Object lock = new Object();
    /** Events told before the initial read is in place; null once it is. Guarded by {@link #lock}. */
    private List<ChangeEvent> early = new ArrayList<>();
    private CommitListener.Registration registration;
    private volatile CompiledPolicy current;

    private final Consumer<PermissionsReduced> reduced;

    @Inject
    PolicyFeed(Store store, Event<PermissionsReduced> reduced) {
        this(store, USERS_CACHED, reduced::fire);
    }

    PolicyFeed(Store store, int usersCached) {
        this(store, usersCached, change -> { });
    }

    PolicyFeed(Store store, int usersCached, Consumer<PermissionsReduced> reduced) {
        this.store = store;
        this.usersCached = usersCached;
        this.reduced = reduced;
    }

    void onStart(@Observes StartupEvent startup) {
        start();
    }

    /**
     * Reads the policy at the store's current revision, once. Listens first, so that no commit after that revision is
     * missed; one told before the read is in place waits in {@link #early} and is applied if the read predates it.
     */
    void start() {
        synchronized (this) {
            if (registration != null) {
                return;
            }
            registration = store.addCommitListener(this::committed);
            long at = store.currentRevision();
            PolicySnapshot snapshot = PolicySnapshot.EMPTY;
            for (String resource : List.of(PolicySnapshot.CLUSTER_ROLES, PolicySnapshot.CLUSTER_ROLE_BINDINGS,
                    PolicySnapshot.ROLES, PolicySnapshot.ROLE_BINDINGS)) {
                for (StoredObject object : store.list(KeyRange.allOf(resource), at, null, Integer.MAX_VALUE,
                        stored -> true, false).items()) {
                    snapshot = snapshot.with(object.key(), object.tree(), at);
                }
            }
            synchronized (lock) {
                for (ChangeEvent event : early) {
                    if (event.revision() > at) {
                        snapshot = snapshot.applied(event);
                    }
                }
                early = null;
                current = new CompiledPolicy(snapshot, usersCached);
            }
        }
    }

    /** Commit lock held: parse one object, copy a chunk, publish. */
    private void committed(ChangeEvent event) {
        if (!PolicySnapshot.isPolicy(event.key().resource())) {
            return;
        }
        synchronized (lock) {
            if (early != null) {
                early.add(event);
                return;
            }
            current = new CompiledPolicy(current.snapshot().applied(event), usersCached);
        }
        if (event.type() != EventType.ADDED) {
            reduced.accept(new PermissionsReduced(event.revision()));
        }
    }

    /** The policy in force; read at first use if a request comes before the start event. */
    CompiledPolicy current() {
        CompiledPolicy policy = current;
        if (policy == null) {
            start();
            policy = current;
        }
        return policy;
    }

    /** Stops following the store (tests; the application's feed lives as long as its store). */
    void stop() {
        synchronized (this) {
            if (registration != null) {
                registration.close();
            }
        }
    }
}
