package io.watchgate.garbagecollector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.objects.ObjectWrites;
import io.watchgate.persistence.StorageConfig;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.CoordinationTypes;
import io.watchgate.types.ResourceTypes;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Which replica collects garbage. Alone (memory or durable storage) this server always does; replicas sharing
 * etcd elect one with the Lease {@code kube-system/watchgate-garbage-collector}, as kube-controller-manager's
 * replicas do with theirs, and with its timings by default (CollectorConfig): a lease of 15 s, renewed every 2 s,
 * given up by a holder that could not renew it for 10 s. Like client-go's elector, a candidate judges another's lease expired by its own
 * clock, from when it last saw the lease change, never from the times written in it.
 */
@ApplicationScoped
public class CollectorLease {

    private static final Logger LOG = Logger.getLogger(CollectorLease.class);
    static final String NAMESPACE = "kube-system";
    static final String NAME = "watchgate-garbage-collector";
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final boolean shared;
    private final Store store;
    private final ObjectWrites writes;
    private final ResourceTypes types;
    private final Clock clock;
    private final String identity;
    private final long leaseMillis;
    private final long renewDeadlineMillis;
    private final long retryMillis;
    private final ObjectKey key;
    private final ScheduledExecutorService elector = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "collector-lease");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean leading;
    /** When this server last wrote the lease as its holder, by the monotonic clock. */
    private volatile long renewedAtNanos;
    private String observedVersion;
    /** When this server last saw the lease change, by the monotonic clock. */
    private long observedAtNanos;

    CollectorLease(StorageConfig storage, CollectorConfig config, Store store, ObjectWrites writes, ResourceTypes types,
            Clock clock) {
        this.leaseMillis = config.leaseDuration().toMillis();
        this.renewDeadlineMillis = Math.min(config.renewDeadline().toMillis(), leaseMillis);
        this.retryMillis = Math.max(1, config.retryPeriod().toMillis());
        this.shared = storage.mode() == StorageConfig.Mode.ETCD;
        this.store = store;
        this.writes = writes;
        this.types = types;
        this.clock = clock;
        this.identity = hostName() + "_" + UUID.randomUUID();
        this.key = new ObjectKey(CoordinationTypes.LEASES.resource(), NAMESPACE, NAME);
    }

    /**
     * Whether this server is the one that collects now: alone, always; sharing etcd, while it holds the lease and
     * renewed it within the renew deadline (judged at each call, so that a renewal stuck on a slow etcd does not
     * keep it collecting beyond the deadline).
     */
    public boolean leading() {
        return !shared || (leading && System.nanoTime() - renewedAtNanos < renewDeadlineMillis * 1_000_000);
    }

    void start(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.APPLICATION + 900) StartupEvent event) {
        if (!shared) {
            return;
        }
        elector.scheduleWithFixedDelay(() -> {
            try {
                tryToLead();
            } catch (RuntimeException | Error e) { // an executor drops a task that throws: this one must go on
                LOG.debugf("the collector's lease could not be taken or renewed now: %s", e.getMessage());
            }
            if (leading && !leading()) {
                LOG.infof("%s could not renew the collector's lease for %d ms: it stops collecting", identity,
                        renewDeadlineMillis);
                leading = false;
            }
        }, 0, retryMillis, TimeUnit.MILLISECONDS);
    }

    /** A holder that stops lets go of the lease, as client-go's ReleaseOnCancel does: another takes over at once. */
    void stop(@Observes ShutdownEvent event) {
        elector.shutdownNow();
        if (shared && leading()) {
            leading = false;
            try {
                StoredObject current = store.latest(key);
                if (current != null && identity.equals(current.tree().path("spec").path("holderIdentity").asText())) {
                    ObjectNode released = current.tree().deepCopy();
                    released.withObject("/spec").put("holderIdentity", "").put("leaseDurationSeconds", 1);
                    bounded(writes.update(CoordinationTypes.LEASES, NAMESPACE, NAME, released, false, false));
                }
            } catch (RuntimeException e) {
                LOG.infof("the collector's lease was not released at shutdown (%s): another replica takes it once it "
                        + "expires", e.getMessage());
            }
        }
        leading = false;
    }

    /** Waits for a write of the lease, no longer than a renewal may take. */
    private void bounded(java.util.concurrent.CompletionStage<?> write) {
        write.toCompletableFuture().orTimeout(renewDeadlineMillis, TimeUnit.MILLISECONDS).join();
    }

    private void tryToLead() {
        long now = clock.millis();
        StoredObject current = store.latest(key);
        if (current == null) {
            ensureNamespace();
            long started = System.nanoTime();
            bounded(writes.create(CoordinationTypes.LEASES, NAMESPACE, lease(0, now, now), false));
            won(started, "took");
            return;
        }
        JsonNode spec = current.tree().path("spec"); // a user may have written anything there, or nothing
        String version = Long.toString(current.revision());
        if (!version.equals(observedVersion)) {
            observedVersion = version;
            observedAtNanos = System.nanoTime();
        }
        String holder = spec.path("holderIdentity").asText("");
        boolean mine = identity.equals(holder);
        // a lease let go of (no holder) is free at once
        boolean expired = holder.isEmpty() || System.nanoTime() - observedAtNanos > leaseMillis * 1_000_000;
        if (!mine && !expired) {
            leading = false;
            return;
        }
        int transitions = spec.path("leaseTransitions").asInt(0) + (mine ? 0 : 1);
        ObjectNode renewed = current.tree().deepCopy();
        renewed.set("spec", lease(transitions, mine ? acquiredAt(spec, now) : now, now).get("spec"));
        long started = System.nanoTime();
        bounded(writes.update(CoordinationTypes.LEASES, NAMESPACE, NAME, renewed, false, false));
        won(started, mine ? "renewed" : "took over");
    }

    /** @param startedNanos when the write that won began: the lease counts from then, not from its answer */
    private void won(long startedNanos, String how) {
        renewedAtNanos = startedNanos;
        if (!leading) {
            LOG.infof("%s %s the collector's lease: it collects garbage", identity, how);
        }
        leading = true;
    }

    private static long acquiredAt(JsonNode spec, long now) {
        try {
            return java.time.Instant.parse(spec.path("acquireTime").asText("")).toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            return now;
        }
    }

    private ObjectNode lease(int transitions, long acquiredMillis, long renewedMillis) {
        ObjectNode lease = JsonNodeFactory.instance.objectNode();
        lease.put("apiVersion", CoordinationTypes.LEASES.apiVersion()).put("kind", "Lease");
        lease.putObject("metadata").put("name", NAME).put("namespace", NAMESPACE);
        lease.putObject("spec")
                .put("holderIdentity", identity)
                .put("leaseDurationSeconds", Math.max(1, leaseMillis / 1000))
                .put("acquireTime", MICRO_TIME.format(java.time.Instant.ofEpochMilli(acquiredMillis)))
                .put("renewTime", MICRO_TIME.format(java.time.Instant.ofEpochMilli(renewedMillis)))
                .put("leaseTransitions", transitions);
        return lease;
    }

    /** kube-system holds the lease, as in Kubernetes; it is made when missing. */
    private void ensureNamespace() {
        ObjectNode namespace = JsonNodeFactory.instance.objectNode();
        namespace.putObject("metadata").put("name", NAMESPACE);
        writes.createAtStart(types.namespaces(), "", namespace);
    }

    private static String hostName() {
        String host = System.getenv("HOSTNAME");
        return host == null || host.isBlank() ? "watchgate" : host;
    }
}
