package io.watchgate.store;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;

/** Compacts revisions older than the configured age, on a Vert.x timer and off the event loop. */
@ApplicationScoped
public class Compactor {
    private static final int BATCH = 10_000;

    private final HistoryCompaction store;
    private final HistoryConfig config;
    private final Vertx vertx;
    private final Clock clock;
    private long timerId = -1;

    Compactor(HistoryCompaction store, HistoryConfig config, Vertx vertx, Clock clock) {
        this.store = store;
        this.config = config;
        this.vertx = vertx;
        this.clock = clock;
    }

    void start(@Observes StartupEvent event) {
        timerId = vertx.setPeriodic(config.compactionInterval().toMillis(),
                id -> vertx.executeBlocking(() -> {
                    compactExpired();
                    return null;
                }, false));
    }

    void stop(@Observes ShutdownEvent event) {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
    }

    /** Drops history older than the configured maximum age. */
    public void compactExpired() {
        long cutoff = clock.millis() - config.maxAge().toMillis();
        store.compactTo(store.newestRevisionCommittedBy(cutoff), BATCH);
    }
}
