package io.watchgate.garbagecollector;

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
 * replicas do with theirs, and with its timings: a lease of 15 s, renewed every 2 s, given up by a holder that
 * could not renew it for 10 s. Like client-go's elector, a candidate judges another's lease expired by its own
 * clock, from when it last saw the lease change, never from the times written in it.
 */
@ApplicationScoped
public class CollectorLease {

    private static final Logger LOG = Logger.getLogger(CollectorLease.class);
    static final String NAMESPACE = "kube-system";
    static final String NAME = "watchgate-garbage-collector";
    private static final int LEASE_SECONDS = 15;
    private static final long RENEW_DEADLINE_MILLIS = 10_000;
    private static final long RETRY_MILLIS = 2_000;
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final boolean shared;
    private final Store store;
    private final ObjectWrites writes;
    private final ResourceTypes types;
    private final Clock clock;
    private final String identity;
    private final ObjectKey key;
    private final ScheduledExecutorService elector = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "collector-lease");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean leading;
    private long renewedAtMillis;
    private String observedVersion;
    private long observedAtMillis;

    CollectorLease(StorageConfig storage, Store store, ObjectWrites writes, ResourceTypes types, Clock clock) {
        this.shared = storage.mode() == StorageConfig.Mode.ETCD;
        this.store = store;
        this.writes = writes;
        this.types = types;
        this.clock = clock;
        this.identity = hostName() + "_" + UUID.randomUUID();
        this.key = new ObjectKey(CoordinationTypes.LEASES.resource(), NAMESPACE, NAME);
    }

    /** Whether this server is the one that collects now. */
    public boolean leading() {
        return !shared || leading;
    }

    /** The name this server holds the lease by. */
    public String identity() {
        return identity;
    }

    void start(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.APPLICATION + 900) StartupEvent event) {
        if (!shared) {
            return;
        }
        elector.scheduleWithFixedDelay(() -> {
            try {
                tryToLead();
            } catch (RuntimeException e) {
                LOG.debugf("the collector's lease could not be written now: %s", e.getMessage());
            }
            if (leading && clock.millis() - renewedAtMillis > RENEW_DEADLINE_MILLIS) {
                LOG.infof("%s could not renew the collector's lease for %d ms: it stops collecting", identity,
                        RENEW_DEADLINE_MILLIS);
                leading = false;
            }
        }, 0, RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        elector.shutdownNow();
        leading = false;
    }

    private void tryToLead() {
        long now = clock.millis();
        StoredObject current = store.latest(key);
        if (current == null) {
            ensureNamespace();
            writes.create(CoordinationTypes.LEASES, NAMESPACE, lease(0, now, now), false).toCompletableFuture().join();
            won(now, "took");
            return;
        }
        ObjectNode spec = (ObjectNode) current.tree().path("spec");
        String version = Long.toString(current.revision());
        if (!version.equals(observedVersion)) {
            observedVersion = version;
            observedAtMillis = now;
        }
        boolean mine = identity.equals(spec.path("holderIdentity").asText(""));
        boolean expired = now - observedAtMillis > LEASE_SECONDS * 1000L;
        if (!mine && !expired) {
            leading = false;
            return;
        }
        int transitions = spec.path("leaseTransitions").asInt(0) + (mine ? 0 : 1);
        ObjectNode renewed = current.tree().deepCopy();
        ObjectNode newSpec = (ObjectNode) lease(transitions, mine ? acquiredAt(spec, now) : now, now).get("spec");
        renewed.set("spec", newSpec);
        writes.update(CoordinationTypes.LEASES, NAMESPACE, NAME, renewed, false, false).toCompletableFuture().join();
        won(now, mine ? "renewed" : "took over");
    }

    private void won(long now, String how) {
        if (!leading) {
            LOG.infof("%s %s the collector's lease: it collects garbage", identity, how);
        }
        renewedAtMillis = now;
        leading = true;
    }

    private static long acquiredAt(ObjectNode spec, long now) {
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
                .put("leaseDurationSeconds", LEASE_SECONDS)
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
