package io.watchgate.watch.fanout;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Store;
import io.watchgate.watch.EncodedEvent;
import io.watchgate.watch.EncodedEvents;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.Watcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The watchers of one event loop. It is the loop's one consumer of committed events: each event is taken once
 * per loop, framed once, and offered to the loop's watchers of that resource. Loop thread only.
 */
final class WatchHub implements WatchLoop {

    /** A grant is one compiled-rules lookup: a few hundred take well under a millisecond. */
    private static final int GRANTS_PER_TURN = 256;

    private final Context context;
    private final EncodedEvents frames;
    private final WatchHubs hubs;
    private final LoopTimers timers;
    private final Turns turns;
    private final Map<String, Set<Watcher>> byResource = new HashMap<>();
    private final MessageConsumer<ChangeEvent> consumer;
    private final MessageConsumer<Long> replacements;
    private long lastRevision;
    private boolean dispatching;
    private final List<Watcher> detachedWhileDispatching = new ArrayList<>();
    private final MemoryBudget budget;
    /** The watchers waiting for their clients to drain, longest waiting first, and the bytes each has queued. */
    private final Map<Watcher, Long> pinned = new LinkedHashMap<>();
    private final AtomicBoolean sheddingAsked = new AtomicBoolean();
    /** A grant recheck was asked of this loop and has not begun; one pass at a time, and one more if asked meanwhile. */
    private final AtomicBoolean recheckAsked = new AtomicBoolean();
    private boolean rechecking;
    private boolean recheckAgain;

    /** Must be created on the loop it serves. */
    WatchHub(Vertx vertx, Store store, EncodedEvents frames, WatchHubs hubs, MemoryBudget budget) {
        this.context = vertx.getOrCreateContext();
        this.frames = frames;
        this.hubs = hubs;
        this.budget = budget;
        this.timers = new LoopTimers(vertx);
        this.turns = new Turns(context);
        this.consumer = vertx.eventBus().localConsumer(EventPublisher.ADDRESS, message -> dispatch(message.body()));
        this.replacements = vertx.eventBus().localConsumer(EventPublisher.REPLACED,
                message -> stateReplaced(message.body()));
        this.lastRevision = store.currentRevision();
    }

    void attach(Watcher watcher) {
        byResource.computeIfAbsent(watcher.resource(), r -> new LinkedHashSet<>()).add(watcher);
        try {
            watcher.start();
        } catch (RuntimeException e) {
            watcher.fail(e);
        }
    }

    private void dispatch(ChangeEvent event) {
        long revision = event.revision();
        if (revision <= lastRevision) {
            return;
        }
        lastRevision = revision;
        Set<Watcher> watchers = byResource.get(event.key().resource());
        if (watchers == null) {
            return;
        }
        EncodedEvent encoded = frames.of(event);
        dispatching = true;
        int sent = 0;
        try {
            for (Watcher watcher : watchers) {
                try {
                    if (watcher.offer(encoded)) {
                        sent++;
                    }
                } catch (RuntimeException e) {
                    watcher.fail(e); // the others still get this event
                }
            }
        } finally {
            dispatching = false;
            hubs.counts().eventsSent(sent);
        }
        for (Watcher watcher : detachedWhileDispatching) {
            forget(watcher);
        }
        detachedWhileDispatching.clear();
    }

    @Override
    public long lastRevision() {
        return lastRevision;
    }

    @Override
    public void runSoon(Runnable task) {
        turns.take(task);
    }

    @Override
    public void schedule(Watcher watcher, Watcher.TimerKind kind, long delayMillis) {
        timers.schedule(watcher, kind, delayMillis);
    }

    @Override
    public void eventsSent(int events) {
        hubs.counts().eventsSent(events);
    }

    @Override
    public void bookmarkSent() {
        hubs.counts().bookmarkSent();
    }

    @Override
    public void pinned(Watcher watcher, long bytes) {
        Long before = pinned.put(watcher, bytes);
        budget.charge(MemoryBudget.Use.WATCHERS, bytes - (before == null ? 0 : before));
    }

    @Override
    public void unpinned(Watcher watcher) {
        Long bytes = pinned.remove(watcher);
        if (bytes != null) {
            budget.release(MemoryBudget.Use.WATCHERS, bytes);
        }
    }

    /** From any thread: the budget is exceeded; this loop ends its stalled watchers, longest stalled first. */
    void shedStalled() {
        if (sheddingAsked.compareAndSet(false, true)) {
            context.runOnContext(v -> endStalledWhileOver());
        }
    }

    /** On this loop: ends stalled watchers, longest stalled first, until the budget is no longer exceeded. */
    void endStalledWhileOver() {
        sheddingAsked.set(false);
        int ended = 0;
        for (Watcher watcher : List.copyOf(pinned.keySet())) {
            if (!budget.isOver()) {
                break;
            }
            watcher.endForMemory();
            ended++;
        }
        budget.shed(MemoryBudget.Shed.WATCHERS, ended);
    }

    @Override
    public void detach(Watcher watcher, boolean slow) {
        unpinned(watcher);
        timers.cancel(watcher);
        hubs.detached(watcher, slow);
        if (dispatching) {
            detachedWhileDispatching.add(watcher);
        } else {
            forget(watcher);
        }
    }

    private void forget(Watcher watcher) {
        Set<Watcher> watchers = byResource.get(watcher.resource());
        if (watchers != null) {
            watchers.remove(watcher);
            if (watchers.isEmpty()) {
                byResource.remove(watcher.resource());
            }
        }
    }

    /**
     * From any thread: permissions may have been taken away. Asks coalesce: however many changes come, this loop runs
     * one pass over its watchers at a time, and one more if changes came during it.
     */
    void recheckGrantsSoon() {
        if (recheckAsked.compareAndSet(false, true)) {
            context.runOnContext(v -> {
                recheckAsked.set(false);
                recheckGrants();
            });
        }
    }

    /**
     * On this loop: each watcher asks its grant again, a batch a turn (taking turns with the loop's other long work),
     * and those whose grant no longer holds end cleanly.
     */
    private void recheckGrants() {
        if (rechecking) {
            recheckAgain = true;
            return;
        }
        rechecking = true;
        List<Watcher> all = new ArrayList<>();
        byResource.values().forEach(all::addAll);
        recheckFrom(all, 0);
    }

    private void recheckFrom(List<Watcher> watchers, int from) {
        turns.take(() -> {
            int to = Math.min(watchers.size(), from + GRANTS_PER_TURN);
            for (Watcher watcher : watchers.subList(from, to)) {
                if (!watcher.hasEnded() && !watcher.spec().grant().holds()) {
                    watcher.end();
                }
            }
            if (to < watchers.size()) {
                recheckFrom(watchers, to);
                return;
            }
            rechecking = false;
            if (recheckAgain) {
                recheckAgain = false;
                recheckGrants();
            }
        });
    }

    /** Ends every watch of this loop cleanly (each with a last bookmark if it asked for bookmarks). */
    void endAll() {
        List<Watcher> all = new ArrayList<>();
        byResource.values().forEach(all::addAll);
        for (Watcher watcher : all) {
            watcher.end();
        }
    }

    /**
     * The store's state was replaced at {@code revision} (see {@code CommitListener#replaced}): no watch here can
     * go on across it, so each is told to relist.
     */
    private void stateReplaced(long revision) {
        lastRevision = Math.max(lastRevision, revision);
        List<Watcher> all = new ArrayList<>();
        byResource.values().forEach(all::addAll);
        for (Watcher watcher : all) {
            watcher.stateReplaced(revision);
        }
    }

    void close() {
        endAll();
        timers.cancelAll();
        consumer.unregister();
        replacements.unregister();
    }

    Context context() {
        return context;
    }
}
