package io.watchgate.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.objects.ObjectWrites;
import io.watchgate.status.ApiException;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.CommitListener;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.RbacTypes;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * kube's ClusterRoleAggregationController: every ClusterRole with an aggregationRule holds the rules of the
 * ClusterRoles it selects (admin, edit and view grow with each CRD's "aggregate-to-view" role, and shrink when it
 * goes). Any committed ClusterRole change sets off one pass over the aggregated roles, on a thread of its own;
 * changes that come during a pass coalesce into one more pass. A pass writes a role only when its rules differ, so
 * its own writes set off one more pass that writes nothing: it cannot loop.
 */
@ApplicationScoped
public class ClusterRoleAggregation {

    private static final Logger LOG = Logger.getLogger(ClusterRoleAggregation.class);
    /** A role changed by someone else between our read and our write is read again, this many times. */
    private static final int WRITE_ATTEMPTS = 8;
    /** Aggregation chains are short (admin, edit, view); a cycle of roles selecting each other ends here. */
    private static final int MAX_PASSES_AT_START = 16;

    private final Store store;
    private final ObjectWrites writes;
    private final AtomicBoolean passPending = new AtomicBoolean();
    private final ExecutorService worker = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "clusterrole-aggregation");
        thread.setDaemon(true);
        return thread;
    });
    private CommitListener.Registration registration;

    ClusterRoleAggregation(Store store, ObjectWrites writes) {
        this.store = store;
        this.writes = writes;
    }

    /**
     * After the default roles and seed data exist: passes until one writes nothing (admin aggregates edit, which
     * aggregates view), so that the roles are whole before the first request is taken.
     */
    void start(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.APPLICATION + 700) StartupEvent event) {
        registration = store.addCommitListener(this::committed);
        for (int pass = 0; pass < MAX_PASSES_AT_START && aggregateAll() > 0; pass++) {
            // each pass sees what the one before wrote
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (registration != null) {
            registration.close();
        }
        worker.shutdownNow();
    }

    /** Commit lock held: only hands the work on. */
    private void committed(ChangeEvent event) {
        if (event.key().resource().equals(RbacTypes.CLUSTER_ROLES.resource())
                && passPending.compareAndSet(false, true)) {
            worker.execute(this::pass);
        }
    }

    private void pass() {
        passPending.set(false); // a change from here on is seen by another pass
        try {
            aggregateAll();
        } catch (RuntimeException e) {
            LOG.errorf(e, "aggregating ClusterRoles failed; the next ClusterRole change tries again");
        }
    }

    /**
     * One pass: each aggregated role brought up to date with the roles as they are now, and as this pass leaves
     * them (a role written is seen so by the roles after it). Its own writes set off one more pass.
     *
     * @return how many roles it wrote
     */
    int aggregateAll() {
        List<JsonNode> roles = clusterRoles();
        List<String> aggregated = roles.stream().filter(AggregatedRules::isAggregated).map(AggregatedRules::name)
                .toList();
        int written = 0;
        for (String name : aggregated) {
            for (int attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
                Outcome outcome = aggregate(name, roles);
                if (outcome == Outcome.WRITTEN) {
                    written++;
                }
                if (outcome != Outcome.CONFLICT) {
                    break;
                }
                roles = clusterRoles(); // someone else wrote: compute from what is there now
            }
        }
        return written;
    }

    private enum Outcome { UNCHANGED, WRITTEN, CONFLICT, FAILED }

    /** Brings {@code name} up to date given {@code roles}, replacing it there once written. */
    private Outcome aggregate(String name, List<JsonNode> roles) {
        int index = -1;
        for (int i = 0; i < roles.size(); i++) {
            if (AggregatedRules.name(roles.get(i)).equals(name)) {
                index = i;
            }
        }
        JsonNode role = index < 0 ? null : roles.get(index);
        if (role == null || !AggregatedRules.isAggregated(role)) {
            return Outcome.UNCHANGED; // gone or no longer aggregated since the pass began
        }
        ArrayNode rules = AggregatedRules.of(role, roles);
        if (AggregatedRules.same(role.path("rules"), rules)) {
            return Outcome.UNCHANGED;
        }
        ObjectNode updated = ((ObjectNode) role).deepCopy();
        updated.set("rules", rules);
        try {
            // pinned to the revision read: a concurrent change is computed from again, never overwritten
            StoredObject written = writes.update(RbacTypes.CLUSTER_ROLES, "", name, updated, false, false)
                    .toCompletableFuture().join();
            roles.set(index, written.tree());
            return Outcome.WRITTEN;
        } catch (CompletionException | ApiException e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof ApiException api && api.code() == 409) {
                return Outcome.CONFLICT;
            }
            LOG.warnf("cannot update the rules of aggregated ClusterRole %s: %s", name, cause.getMessage());
            return Outcome.FAILED;
        }
    }

    private List<JsonNode> clusterRoles() {
        List<JsonNode> roles = new ArrayList<>();
        for (StoredObject role : store.list(KeyRange.allOf(RbacTypes.CLUSTER_ROLES.resource()),
                store.currentRevision(), null, Integer.MAX_VALUE, object -> true, false).items()) {
            roles.add(role.tree());
        }
        return roles;
    }
}
