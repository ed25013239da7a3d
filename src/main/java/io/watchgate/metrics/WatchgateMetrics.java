package io.watchgate.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.watchgate.api.SendDeadline;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.persistence.StorageProducer;
import io.watchgate.persistence.WriteAheadLog;
import io.watchgate.store.ObjectCounts;
import io.watchgate.store.Store;
import io.watchgate.store.StoreStatistics;
import io.watchgate.watch.fanout.WatchCounts;
import io.watchgate.watch.fanout.WatchHubs;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;

/**
 * watchgate's own meters, next to Quarkus' HTTP request metrics, at {@code /q/metrics}. All of them read
 * counters the store, the log and the watch hubs keep anyway: nothing here runs per request or per event.
 */
@Singleton
public class WatchgateMetrics implements MeterBinder {

    private final Store store;
    private final WatchHubs watches;
    private final StorageProducer storage;
    private final SendDeadline deadline;
    private final MemoryBudget memory;

    WatchgateMetrics(Store store, WatchHubs watches, StorageProducer storage, SendDeadline deadline,
            MemoryBudget memory) {
        this.store = store;
        this.watches = watches;
        this.storage = storage;
        this.deadline = deadline;
        this.memory = memory;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("watchgate.store.revision", store, Store::currentRevision)
                .description("the newest committed resourceVersion").register(registry);
        Gauge.builder("watchgate.store.oldest.revision", store, Store::oldestRevision)
                .description("the oldest resourceVersion a read or watch can still start from").register(registry);
        StoreStatistics statistics = store.statistics();
        ObjectCounts objects = statistics.objectCounts();
        objects.onNewResource(resource -> Gauge.builder("watchgate.objects", objects, c -> c.of(resource))
                .tag("resource", resource).description("objects stored now").register(registry));

        Gauge.builder("watchgate.watches.active", watches, WatchHubs::active)
                .description("watches being served").register(registry);
        WatchCounts counts = watches.counts();
        counts.onNewKind(kind -> Gauge.builder("watchgate.watches", counts, c -> c.open(kind))
                .tags("resource", kind.resource(), "form", kind.form())
                .description("watches being served, by resource and form").register(registry));
        FunctionCounter.builder("watchgate.watch.events.sent", counts, WatchCounts::eventsSent)
                .description("events written to watchers (each once per watcher)").register(registry);
        FunctionCounter.builder("watchgate.watch.bookmarks.sent", counts, WatchCounts::bookmarksSent)
                .description("bookmarks written to watchers").register(registry);
        FunctionCounter.builder("watchgate.watches.ended.slow", watches, WatchHubs::endedSlow)
                .description("watches ended because their client stopped reading").register(registry);
        Gauge.builder("watchgate.streams", watches, WatchHubs::streams)
                .description("streams of many watches (/streams) being served; their watches count among "
                        + "watchgate.watches with form=stream").register(registry);
        FunctionCounter.builder("watchgate.streams.coalesced", counts, WatchCounts::coalescedSent)
                .description("coalesced events written to streams whose clients fell behind (each stands for "
                        + "all the changes of one object meanwhile)").register(registry);

        FunctionCounter.builder("watchgate.responses.cut.off", deadline, SendDeadline::cutOff)
                .description("streamed lists cut off for not being sent whole within the send timeout")
                .register(registry);

        Gauge.builder("watchgate.memory.budget", memory, MemoryBudget::limit).baseUnit("bytes")
                .description("the memory budget: what the server may keep on behalf of clients").register(registry);
        for (MemoryBudget.Use use : MemoryBudget.Use.values()) {
            Gauge.builder("watchgate.memory.used", memory, m -> m.used(use)).baseUnit("bytes").tag("use", use.tag())
                    .description("bytes counted against the memory budget, by who keeps them").register(registry);
        }
        for (MemoryBudget.Shed what : MemoryBudget.Shed.values()) {
            FunctionCounter.builder("watchgate.memory.shed", memory, m -> m.shed(what)).tag("what", what.tag())
                    .description("what was given up to stay within the memory budget: cached frames dropped, "
                            + "stalled watchers ended, writes and new watches refused").register(registry);
        }

        storage.log().ifPresent(log -> {
            FunctionTimer.builder("watchgate.wal.sync", log, WriteAheadLog::syncs, WriteAheadLog::syncNanos,
                    TimeUnit.NANOSECONDS).description("fdatasyncs of the write-ahead log").register(registry);
            FunctionTimer.builder("watchgate.wal.append", log, WriteAheadLog::syncs, WriteAheadLog::appendNanos,
                    TimeUnit.NANOSECONDS).description("batches encoded and written to the write-ahead log, before "
                            + "their sync").register(registry);
            FunctionCounter.builder("watchgate.wal.entries", log, WriteAheadLog::entries)
                    .description("writes made durable").register(registry);
            FunctionTimer.builder("watchgate.store.durable.wait", statistics, StoreStatistics::durableWrites,
                    StoreStatistics::durableWaitNanos, TimeUnit.NANOSECONDS)
                    .description("how long writes waited to become durable, from submit to the log's sync")
                    .register(registry);
        });
    }
}
