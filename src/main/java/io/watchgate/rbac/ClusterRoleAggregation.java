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

    /** After the default roles and seed data exist: the first pass runs before the first request is taken. */
    void start(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.APPLICATION + 700) StartupEvent event) {
        registration = store.addCommitListener(this::committed);
        aggregateAll();
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

    /** One pass: each aggregated role brought up to date with the roles as they are now. */
    void aggregateAll() {
        for (JsonNode role : clusterRoles()) {
            if (AggregatedRules.isAggregated(role)) {
                aggregate(AggregatedRules.name(role));
            }
        }
    }

    private void aggregate(String name) {
        for (int attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
            List<JsonNode> roles = clusterRoles();
            JsonNode role = roles.stream().filter(each -> AggregatedRules.name(each).equals(name)).findFirst()
                    .orElse(null);
            if (role == null || !AggregatedRules.isAggregated(role)) {
                return; // gone or no longer aggregated since the pass began
            }
            ArrayNode rules = AggregatedRules.of(role, roles);
            if (AggregatedRules.same(role.path("rules"), rules)) {
                return;
            }
            ObjectNode updated = ((ObjectNode) role).deepCopy();
            updated.set("rules", rules);
            try {
                // pinned to the revision read: a concurrent change is computed from again, never overwritten
                writes.update(RbacTypes.CLUSTER_ROLES, "", name, updated, false, false).toCompletableFuture().join();
                return;
            } catch (CompletionException | ApiException e) {
                Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                boolean conflict = cause instanceof ApiException api && api.code() == 409;
                if (!conflict || attempt == WRITE_ATTEMPTS) {
                    LOG.warnf("cannot update the rules of aggregated ClusterRole %s: %s", name, cause.getMessage());
                    return;
                }
            }
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
