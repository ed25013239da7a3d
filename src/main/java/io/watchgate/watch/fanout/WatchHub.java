package io.watchgate.watch.fanout;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.http.HeldFlushes;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.KeyRange;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.watch.EncodedEvent;
import io.watchgate.watch.EncodedEvents;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.Subscriber;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The subscribers of one event loop (watches, and streams of watches). It is the loop's one consumer of committed
 * events: each event is taken once per loop, framed once, and offered to the loop's subscribers that watch its
 * resource, or, for a watcher of one namespace or of one object, that namespace or object. Loop thread only.
 */
final class WatchHub implements WatchLoop {

    /** A grant is one compiled-rules lookup: a few hundred take well under a millisecond. */
    private static final int GRANTS_PER_TURN = 256;

    private final Context context;
    private final EncodedEvents frames;
    private final WatchHubs hubs;
    private final LoopTimers timers;
    private final Turns turns;
    private final Set<Subscriber> subscribers = new LinkedHashSet<>();
    /** Who watches each resource: a stream of several watches of one resource is offered its events once. */
    private final Map<String, Set<Subscriber>> byResource = new HashMap<>();
    /**
     * Who watches only one object (see {@link Subscriber#onlyObject}): found by the event's key, so that a write is
     * offered to its object's watchers only, however many watch other objects of the resource.
     */
    private final Map<ObjectKey, Set<Subscriber>> byObject = new HashMap<>();
    /**
     * Who watches one namespace of a resource (see {@link Subscriber#onlyNamespace}): a write is offered to the
     * watchers of its namespace, however many watch the resource's other namespaces.
     */
    private final Map<KeyRange, Set<Subscriber>> byNamespace = new HashMap<>();
    private final MessageConsumer<ChangeEvent> consumer;
    private final MessageConsumer<Long> replacements;
    private long lastRevision;
    private boolean dispatching;
    /** Index changes asked for while an event was being offered, made once it has been. */
    private final List<Runnable> afterDispatching = new ArrayList<>();
    private final MemoryBudget budget;
    /** The subscribers waiting for their clients to drain, longest waiting first, and the bytes each has queued. */
    private final Map<Subscriber, Long> pinned = new LinkedHashMap<>();
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
        this.consumer = vertx.eventBus().localConsumer(EventPublisher.ADDRESS,
                message -> HeldFlushes.around(() -> dispatch(message.body()))); // one flush per connection
        this.replacements = vertx.eventBus().localConsumer(EventPublisher.REPLACED,
                message -> stateReplaced(message.body()));
        this.lastRevision = store.currentRevision();
    }

    void attach(Subscriber subscriber) {
        subscribers.add(subscriber);
        ObjectKey only = subscriber.onlyObject();
        KeyRange namespace = subscriber.onlyNamespace();
        // in one index only, for good: such a subscriber is a single watch, which adds and ends no watches later
        if (only != null) {
            byObject.computeIfAbsent(only, o -> new LinkedHashSet<>()).add(subscriber);
        } else if (namespace != null) {
            byNamespace.computeIfAbsent(namespace, n -> new LinkedHashSet<>()).add(subscriber);
        } else {
            for (String resource : subscriber.watchedResources()) {
                byResource.computeIfAbsent(resource, r -> new LinkedHashSet<>()).add(subscriber);
            }
        }
        try {
            subscriber.start();
        } catch (RuntimeException e) {
            subscriber.fail(e);
        }
    }

    private void dispatch(ChangeEvent event) {
        long revision = event.revision();
        if (revision <= lastRevision) {
            return;
        }
        lastRevision = revision;
        ObjectKey key = event.key();
        Set<Subscriber> watching = byResource.get(key.resource());
        Set<Subscriber> watchingNamespace = byNamespace.isEmpty() || key.namespace().isEmpty() ? null
                : byNamespace.get(KeyRange.inNamespace(key.resource(), key.namespace()));
        Set<Subscriber> watchingObject = byObject.isEmpty() ? null : byObject.get(key);
        if (watching == null && watchingNamespace == null && watchingObject == null) {
            return;
        }
        EncodedEvent encoded = frames.of(event);
        dispatching = true;
        int sent = 0;
        try {
            sent += offer(encoded, watching);
            sent += offer(encoded, watchingNamespace);
            sent += offer(encoded, watchingObject);
        } finally {
            dispatching = false;
            hubs.counts().eventsSent(sent);
        }
        for (Runnable change : afterDispatching) {
            change.run();
        }
        afterDispatching.clear();
    }

    /** @return to how many of {@code watching} (null: none) it was sent */
    private static int offer(EncodedEvent encoded, Set<Subscriber> watching) {
        if (watching == null) {
            return 0;
        }
        int sent = 0;
        for (Subscriber subscriber : watching) {
            try {
                if (subscriber.offer(encoded)) {
                    sent++;
                }
            } catch (RuntimeException e) {
                subscriber.fail(e); // the others still get this event
            }
        }
        return sent;
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
    public void schedule(Subscriber subscriber, Subscriber.TimerKind kind, long delayMillis) {
        timers.schedule(subscriber, kind, delayMillis);
    }

    @Override
    public void eventsSent(int events) {
        hubs.counts().eventsSent(events);
    }

    @Override
    public void coalescedSent(int events) {
        hubs.counts().coalescedSent(events);
    }

    @Override
    public void bookmarkSent() {
        hubs.counts().bookmarkSent();
    }

    @Override
    public void pinned(Subscriber subscriber, long bytes) {
        Long before = pinned.put(subscriber, bytes);
        budget.charge(MemoryBudget.Use.WATCHERS, bytes - (before == null ? 0 : before));
    }

    @Override
    public void unpinned(Subscriber subscriber) {
        Long bytes = pinned.remove(subscriber);
        if (bytes != null) {
            budget.release(MemoryBudget.Use.WATCHERS, bytes);
        }
    }

    /** From any thread: the budget is exceeded; this loop ends its stalled subscribers, longest stalled first. */
    void shedStalled() {
        if (sheddingAsked.compareAndSet(false, true)) {
            context.runOnContext(v -> endStalledWhileOver());
        }
    }

    /** On this loop: ends stalled subscribers, longest stalled first, until the budget is no longer exceeded. */
    void endStalledWhileOver() {
        sheddingAsked.set(false);
        int ended = 0;
        for (Subscriber subscriber : List.copyOf(pinned.keySet())) {
            if (!budget.isOver()) {
                break;
            }
            subscriber.endForMemory();
            ended++;
        }
        budget.shed(MemoryBudget.Shed.WATCHERS, ended);
    }

    @Override
    public void detach(Subscriber subscriber, boolean slow) {
        unpinned(subscriber);
        timers.cancel(subscriber);
        hubs.detached(subscriber, slow);
        subscribers.remove(subscriber);
        afterOffers(() -> forget(subscriber));
    }

    @Override
    public void watchAdded(Subscriber subscriber, String resource) {
        hubs.watchStarted(resource, subscriber.form());
        afterOffers(() -> byResource.computeIfAbsent(resource, r -> new LinkedHashSet<>()).add(subscriber));
    }

    @Override
    public void watchEnded(Subscriber subscriber, String resource) {
        hubs.watchEnded(resource, subscriber.form());
        if (!subscriber.watchedResources().contains(resource)) {
            afterOffers(() -> unindex(subscriber, byResource, resource));
        }
    }

    /** Runs {@code change} to the index now, or once the event being offered has been offered to everyone. */
    private void afterOffers(Runnable change) {
        if (dispatching) {
            afterDispatching.add(change);
        } else {
            change.run();
        }
    }

    private void forget(Subscriber subscriber) {
        if (subscriber.onlyObject() != null) {
            unindex(subscriber, byObject, subscriber.onlyObject());
        } else if (subscriber.onlyNamespace() != null) {
            unindex(subscriber, byNamespace, subscriber.onlyNamespace());
        } else {
            List.copyOf(byResource.keySet()).forEach(resource -> unindex(subscriber, byResource, resource));
        }
    }

    private static <K> void unindex(Subscriber subscriber, Map<K, Set<Subscriber>> index, K key) {
        Set<Subscriber> watching = index.get(key);
        if (watching != null && watching.remove(subscriber) && watching.isEmpty()) {
            index.remove(key);
        }
    }

    /**
     * From any thread: permissions may have been taken away. Asks coalesce: however many changes come, this loop runs
     * one pass over its subscribers at a time, and one more if changes came during it.
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
     * On this loop: each subscriber asks its grants again, a batch a turn (taking turns with the loop's other long
     * work), and the watches whose grant no longer holds end cleanly.
     */
    private void recheckGrants() {
        if (rechecking) {
            recheckAgain = true;
            return;
        }
        rechecking = true;
        recheckFrom(List.copyOf(subscribers), 0);
    }

    private void recheckFrom(List<Subscriber> all, int from) {
        turns.take(() -> {
            int to = Math.min(all.size(), from + GRANTS_PER_TURN);
            for (Subscriber subscriber : all.subList(from, to)) {
                if (!subscriber.hasEnded()) {
                    try {
                        subscriber.recheckGrants();
                    } catch (RuntimeException e) {
                        subscriber.fail(e);
                    }
                }
            }
            if (to < all.size()) {
                recheckFrom(all, to);
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
        for (Subscriber subscriber : List.copyOf(subscribers)) {
            subscriber.end();
        }
    }

    /**
     * The store's state was replaced at {@code revision} (see {@code CommitListener#replaced}): no watch here can
     * go on across it, so each is told to relist.
     */
    private void stateReplaced(long revision) {
        lastRevision = Math.max(lastRevision, revision);
        for (Subscriber subscriber : List.copyOf(subscribers)) {
            subscriber.stateReplaced(revision);
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
