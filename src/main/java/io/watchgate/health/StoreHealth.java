package io.watchgate.health;

import io.watchgate.etcd.EtcdConfig;
import io.watchgate.etcd.EtcdHealth;
import io.watchgate.persistence.StorageProducer;
import io.watchgate.store.Store;
import io.watchgate.watch.fanout.WatchHubs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;

/**
 * The probes Kubernetes asks (SmallRye Health, under {@code /q/health}):
 * <ul>
 * <li>started: UP with the store's revision, as soon as it answers at all: the store is recovered before it can
 * be asked, so the startup probe's budget is what covers a long recovery;</li>
 * <li>live: unless the write-ahead log failed in a way only a restart mends, which is what a failed liveness
 * probe brings about;</li>
 * <li>ready: taking writes, not draining watches for a shutdown, and, in etcd mode, etcd answering (or not for
 * less than {@code watchgate.storage.etcd.readiness-grace}).</li>
 * </ul>
 */
@ApplicationScoped
public class StoreHealth {

    private final Store store;
    private final StorageProducer storage;
    private final WatchHubs watches;
    private final EtcdConfig etcdConfig;

    StoreHealth(Store store, StorageProducer storage, WatchHubs watches, EtcdConfig etcdConfig) {
        this.store = store;
        this.etcdConfig = etcdConfig;
        this.storage = storage;
        this.watches = watches;
    }

    @Produces
    @Startup
    HealthCheck startup() {
        return () -> withRevision(HealthCheckResponse.named("store recovered").up());
    }

    @Produces
    @Liveness
    HealthCheck liveness() {
        return () -> {
            Optional<String> refusal = storage.writesRefusedUntilRestart();
            return withRevision(HealthCheckResponse.named("write-ahead log").status(refusal.isEmpty())
                    .withData("refusal", refusal.orElse("none")));
        };
    }

    @Produces
    @Readiness
    HealthCheck readiness() {
        return () -> {
            Optional<String> refusal = storage.writesRefusedUntilRestart();
            boolean draining = watches.draining();
            Optional<Duration> etcdDown = storage.etcd().flatMap(EtcdHealth::unreachableFor);
            boolean etcdGone = etcdDown.filter(down -> down.compareTo(etcdConfig.readinessGrace()) > 0).isPresent();
            HealthCheckResponseBuilder response = HealthCheckResponse.named("serving")
                    .status(refusal.isEmpty() && !draining && !etcdGone)
                    .withData("draining", draining)
                    .withData("takesWrites", refusal.isEmpty() && etcdDown.isEmpty());
            storage.etcd().ifPresent(etcd -> response.withData("etcd", etcdDown.isEmpty() ? "answering"
                    : "not answering for " + etcdDown.get().toSeconds() + " s: " + etcd.lastFailure()));
            return withRevision(response);
        };
    }

    private HealthCheckResponse withRevision(HealthCheckResponseBuilder builder) {
        return builder.withData("revision", store.currentRevision()).build();
    }
}
