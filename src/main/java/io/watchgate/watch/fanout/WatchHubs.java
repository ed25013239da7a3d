package io.watchgate.watch.fanout;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.status.ApiException;
import io.watchgate.store.Store;
import io.watchgate.watch.EncodedEvents;
import io.watchgate.watch.WatchConfig;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WatchSpec;
import io.watchgate.watch.Subscriber;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.Watcher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jboss.logging.Logger;

/** One {@link WatchHub} per event loop, made when the loop serves its first watch, and the watch count. */
@ApplicationScoped
public class WatchHubs {

    private static final Logger LOG = Logger.getLogger(WatchHubs.class);
    private static final long ENDING_TIMEOUT_SECONDS = 10;
    /** The form of a stream of many watches (see {@link Subscriber#form()}). */
    public static final String STREAM = "stream";

    private final Vertx vertx;
    private final Store store;
    private final EncodedEvents frames;
    private final WatchConfig config;
    private final MemoryBudget budget;
    private final ConcurrentHashMap<Thread, WatchHub> hubs = new ConcurrentHashMap<>();
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicLong endedSlow = new AtomicLong();
    private final AtomicInteger streams = new AtomicInteger();
    private final WatchCounts counts = new WatchCounts();
    private volatile boolean draining;

    WatchHubs(Vertx vertx, Store store, EncodedEvents frames, WatchConfig config, MemoryBudget budget) {
        this.vertx = vertx;
        this.store = store;
        this.frames = frames;
        this.config = config;
        this.budget = budget;
        // second to give up memory, after cached frames: stalled watchers re-watch as after any slow-client end
        budget.shedder(MemoryBudget.Shed.WATCHERS, b -> {
            // the calling loop's own at once: a loop busy starting watches would run a queued task too late
            WatchHub own = hubs.get(Thread.currentThread());
            for (WatchHub hub : hubs.values()) {
                if (hub == own) {
                    hub.endStalledWhileOver();
                } else {
                    hub.shedStalled();
                }
            }
        });
    }

    /**
     * Takes a place for one more watch, or refuses it: 503 while draining, 429 at the configured maximum or past
     * the memory budget.
     * A caller that then cannot start its watch gives the place back with {@link #release()}.
     */
    public void admit() {
        admit(1);
    }

    /** As {@link #admit()}, for {@code watches} at once (a stream of them): all of them, or none. */
    public void admit(int watches) {
        if (draining) {
            throw new ApiException(503, "ServiceUnavailable", "the server is not accepting new watches right now",
                    ApiException.Details.NONE, 1, null);
        }
        if (budget.isOver()) {
            budget.shed(MemoryBudget.Shed.NEW_WATCHES, 1);
            throw new ApiException(429, "TooManyRequests", "the server is short of memory and takes no new watches "
                    + "for now", ApiException.Details.NONE, budget.retryAfterSeconds(), null);
        }
        if (active.addAndGet(watches) > config.maxWatchers()) {
            active.addAndGet(-watches);
            throw new ApiException(429, "TooManyRequests", "too many watches: the server serves at most "
                    + config.maxWatchers() + " at once", ApiException.Details.NONE, 1, null);
        }
    }

    public void release() {
        release(1);
    }

    public void release(int watches) {
        active.addAndGet(-watches);
    }

    /** Starts an admitted watch on the calling event loop. */
    public void start(WatchSpec spec, WatchSink sink) {
        start(loop -> new Watcher(spec, sink, loop, store, frames, config), sink);
    }

    /**
     * Starts an admitted subscriber (as many places as it has watches) on the calling event loop.
     *
     * @param subscriber makes it, for the loop that serves it
     * @param sink       where it writes: ended at once, with nothing started, while the server drains
     * @return whether it started (not while the server drains)
     */
    public boolean start(Function<WatchLoop, Subscriber> subscriber, WatchSink sink) {
        Context context = Vertx.currentContext();
        if (context == null || !context.isEventLoopContext()) {
            throw new IllegalStateException("watches are started on an event loop");
        }
        WatchHub hub = hubs.computeIfAbsent(Thread.currentThread(),
                t -> new WatchHub(vertx, store, frames, this, budget));
        Subscriber made = subscriber.apply(hub);
        if (draining) {
            // admitted before the drain began, and started after it ended the others: end it too
            release(made.watchedResources().size());
            sink.end();
            return false;
        }
        for (String resource : made.watchedResources()) {
            counts.started(resource, made.form());
        }
        if (STREAM.equals(made.form())) {
            streams.incrementAndGet();
        }
        hub.attach(made);
        if (draining) {
            made.end(); // a drain began while this loop's hub was being made: it may not have seen this one
        }
        return true;
    }


    /**
     * From any thread: permissions were taken away; every loop asks its watchers' grants again (see {@link
     * io.watchgate.watch.WatchGrant}).
     */
    public void recheckGrants() {
        for (WatchHub hub : hubs.values()) {
            hub.recheckGrantsSoon();
        }
    }

    void detached(Subscriber subscriber, boolean slow) {
        if (STREAM.equals(subscriber.form())) {
            streams.decrementAndGet();
        }
        for (String resource : subscriber.watchedResources()) {
            watchEnded(resource, subscriber.form());
        }
        if (slow) {
            endedSlow.incrementAndGet();
        }
    }

    void watchStarted(String resource, String form) {
        counts.started(resource, form);
    }

    void watchEnded(String resource, String form) {
        active.decrementAndGet();
        counts.ended(resource, form);
    }

    /** Watches by resource and form, and what they were sent: for metrics. */
    public WatchCounts counts() {
        return counts;
    }

    /** Streams of many watches being served. */
    public int streams() {
        return streams.get();
    }

    public int active() {
        return active.get();
    }

    public long endedSlow() {
        return endedSlow.get();
    }

    /**
     * Ends every watch and refuses new ones until {@link #resume()}: clients reconnect elsewhere, or here later.
     * Completes once every loop has ended its watches.
     */
    public Future<Void> drain() {
        draining = true;
        List<Future<Void>> ended = new ArrayList<>();
        for (WatchHub hub : hubs.values()) {
            Promise<Void> done = Promise.promise();
            hub.context().runOnContext(v -> {
                hub.endAll();
                done.complete();
            });
            ended.add(done.future());
        }
        return Future.all(ended).mapEmpty();
    }

    /** Whether watches are being ended and new ones refused (see {@link #drain()}). */
    public boolean draining() {
        return draining;
    }

    public void resume() {
        draining = false;
    }

    /**
     * Shutting down: ends every watch (with a last bookmark for those that asked for bookmarks) and waits until
     * each loop has written its ends, so that they go out before the connections close and clients re-watch from
     * where they were rather than from a cut stream.
     */
    void shuttingDown(@Observes ShutdownDelayInitiatedEvent event) {
        endAllBeforeShutdown();
    }

    void stop(@Observes ShutdownEvent shutdown) {
        endAllBeforeShutdown();
        for (WatchHub hub : hubs.values()) {
            hub.context().runOnContext(v -> hub.close());
        }
        hubs.clear();
    }

    private void endAllBeforeShutdown() {
        try {
            drain().toCompletionStage().toCompletableFuture().get(ENDING_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warnf("not every watch was ended cleanly before shutting down: %s", e);
        }
    }
}
