package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusBody;
import io.watchgate.store.KeyRange;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * One watch: it sends the initial events its request asks for, catches up from the store's history, then takes
 * live events from its loop, and ends on timeout, when its client leaves, or when its client stops reading.
 *
 * <p>Exactly once, in order: {@link #position} is the revision through which every event has been handled, and
 * an event is handled only if it comes after it, whether it arrives live or from history. A watcher whose client
 * stops reading stops taking live events and later catches up from history, which is shared by every watcher:
 * a slow client costs its connection's buffers, never a queue of its own. Runs on its loop's thread only.
 *
 * <p>One state machine (snapshot, catching up, live, stalled, ended): every transition stays here, next to the
 * others, and the work between transitions lives beside it. {@link InitialEvents} sends the snapshot a stretch at a
 * time and {@link HistoryReplay} history a batch at a time, each saying why it stopped; {@link Stall} owns what a
 * client that is not reading costs (the bytes it pins in the memory budget, the events that go by unsent, the bound
 * past which it is ended) and the waits for its drain; {@link WatchTimers} arms the end, bookmarks and heartbeats.
 * Which events it is sent is {@link EventFilter}'s call, and the bytes of every frame are {@link WireFormat}'s.
 */
public final class Watcher implements Subscriber {

    private static final Logger LOG = Logger.getLogger(Watcher.class);

    private enum State { SNAPSHOT, CATCHING_UP, LIVE, STALLED, ENDED }

    private final WatchSpec spec;
    private final ObjectKey onlyObject;
    private final KeyRange onlyNamespace;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final Store store;
    private final WatchConfig config;
    private final Stall stall;
    private final HistoryReplay history;
    private final WatchTimers timers;
    /** The cursor over the snapshot while sending it, for watches that ask for initial events. */
    private InitialEvents initialEvents;
    private State state = State.SNAPSHOT;
    private long position;
    private boolean wentLive;

    public Watcher(WatchSpec spec, WatchSink sink, WatchLoop loop, Store store, EncodedEvents frames,
            WatchConfig config) {
        this.spec = spec;
        this.onlyObject = spec.onlyObject();
        this.onlyNamespace = spec.onlyNamespace();
        this.sink = sink;
        this.loop = loop;
        this.store = store;
        this.config = config;
        this.stall = new Stall(this, sink, loop, config);
        this.timers = new WatchTimers(this, spec.lifetime(config), spec.bookmarks(), sink, loop, config);
        this.history = new HistoryReplay(EventFilter.replaying(spec, sink.format()), store, frames, config, sink, loop,
                this::send);
    }

    public WatchSpec spec() {
        return spec;
    }

    public String resource() {
        return spec.type().storageResource();
    }

    @Override
    public List<String> watchedResources() {
        return List.of(resource());
    }

    @Override
    public ObjectKey onlyObject() {
        return onlyObject;
    }

    @Override
    public KeyRange onlyNamespace() {
        return onlyNamespace;
    }

    @Override
    public String form() {
        return sink.form();
    }

    public boolean isLive() {
        return state == State.LIVE;
    }

    @Override
    public boolean hasEnded() {
        return state == State.ENDED;
    }

    @Override
    public void start() {
        sink.onClose(this::closed);
        if (state == State.ENDED) {
            return; // the client left before the watch started
        }
        timers.start();
        if (spec.initialEvents()) {
            initialEvents = new InitialEvents(store.currentRevision(), spec, store, config, sink, loop, this::send);
            sendInitialEvents();
        } else if (spec.resourceVersion() > 0) {
            position = spec.resourceVersion();
            state = State.CATCHING_UP;
            catchUp();
        } else {
            position = store.currentRevision();
            goLive();
        }
    }

    /**
     * Sends the initial events a stretch at a time, yielding between stretches and waiting whenever the client's
     * buffers are full; then catches up from their revision.
     */
    private void sendInitialEvents() {
        if (state != State.SNAPSHOT) {
            return;
        }
        switch (initialEvents.sendStretch()) {
            case CLIENT_FULL -> stall.afterDrain(this::sendInitialEvents);
            case STRETCH_READ -> soon(this::sendInitialEvents);
            case COMPACTED -> expire(initialEvents.revision(), initialEvents.oldestRetained());
            case ALL_SENT -> initialEventsSent(initialEvents.revision());
        }
    }

    private void initialEventsSent(long snapshot) {
        initialEvents = null; // the cursor, and the key it stopped at, are done with
        position = snapshot;
        if (spec.initialEventsEnd() || (timers.isEventStream() && spec.initialEvents())) {
            writeBookmark(snapshot, true);
        }
        state = State.CATCHING_UP;
        if (sink.writeQueueFull()) {
            stall.afterDrain(this::catchUp);
        } else {
            soon(this::catchUp);
        }
    }

    private void send(Buffer frame) {
        sink.write(frame);
        stall.wrote(frame.length());
    }

    /** Runs {@code task} on the loop later, ending this watch alone if it throws. */
    private void soon(Runnable task) {
        loop.runSoon(() -> guarded(task));
    }

    @Override
    public void guarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    /** Delivers from history, a batch at a time, until caught up with the store; then goes live. */
    private void catchUp() {
        if (state != State.CATCHING_UP) {
            return;
        }
        long head = store.currentRevision();
        if (position >= head) {
            goLive();
            return;
        }
        HistoryReplay.Stop stop;
        try {
            stop = history.sendBatch(position, Long.MAX_VALUE);
        } finally {
            position = history.handledThrough(); // through every event handled, even when sending one threw
        }
        switch (stop) {
            case CLIENT_FULL -> stall();
            case COMPACTED -> fellOutOfHistory(history.oldestRetained());
            case BATCH_SENT -> {
                if (position >= head) {
                    goLive();
                } else {
                    soon(this::catchUp);
                }
            }
        }
    }

    private void goLive() {
        state = State.LIVE;
        wentLive = true;
        stall.cancel();
    }

    @Override
    public boolean offer(EncodedEvent event) {
        switch (state) {
            case LIVE -> {
                if (event.revision() <= position) {
                    return false; // delivered from history already
                }
                position = event.revision();
                Buffer frame = EventFilter.frameFor(event, spec, sink.format());
                if (frame == null) {
                    return false;
                }
                send(frame);
                if (sink.writeQueueFull()) {
                    stall();
                }
                return true;
            }
            default -> {
                // it will come from history; but a client that stopped reading (in its snapshot too) has a bound
                if (stall.isPinned() && state != State.ENDED && spec.range().contains(event.event().key())) {
                    String behind = stall.wentBy(event.event().object().json().length);
                    if (behind != null) {
                        endSlow(behind);
                    }
                }
                return false;
            }
        }
    }

    private void stall() {
        if (state == State.LIVE) {
            // it has been offered every event of its loop that concerns it (a watcher of one namespace or object:
            // that namespace's or object's alone), so its catch-up starts after what the loop fanned out, not after
            // its own last event
            position = Math.max(position, loop.lastRevision());
        }
        state = State.STALLED;
        stall.afterDrain(() -> {
            state = State.CATCHING_UP;
            catchUp();
        });
    }

    @Override
    public void onTimer(TimerKind kind) {
        if (state == State.ENDED) {
            return;
        }
        if (kind == TimerKind.END) {
            end();
            return;
        }
        if (state == State.LIVE) { // bookmarks and heartbeats are a courtesy: a watcher behind skips them
            if (kind == TimerKind.BOOKMARK) {
                writeBookmark(bookmarkRevision(), false);
            } else {
                send(sink.format().heartbeat());
            }
            stallIfFull();
        }
        timers.again(kind);
    }

    private void stallIfFull() {
        if (state == State.LIVE && sink.writeQueueFull()) {
            stall();
        }
    }

    /**
     * A live watcher has been offered every event its loop fanned out that concerns it, and has handled its own
     * position.
     */
    private long bookmarkRevision() {
        return Math.max(position, loop.lastRevision());
    }

    /** Ends the stream cleanly, after a last bookmark so that the client resumes without replay. */
    @Override
    public void end() {
        if (state == State.ENDED) {
            return;
        }
        if (state == State.LIVE && timers.sendsBookmarks()) {
            writeBookmark(bookmarkRevision(), false);
        }
        finish(false, sink::end);
    }

    private void closed() {
        if (state != State.ENDED) {
            finish(false, () -> { });
        }
    }

    /** Forgotten by its loop (counted as ended slow or not), then its connection ended or dropped. */
    private void finish(boolean slow, Runnable connection) {
        state = State.ENDED;
        loop.detach(this, slow);
        connection.run();
    }

    @Override
    public void endForMemory() {
        if (state != State.ENDED) {
            endSlow("the server is short of memory");
        }
    }

    private void endSlow(String how) {
        String resume = initialEvents != null ? "it must start over with its initial events"
                : "it may re-watch from resourceVersion " + position;
        LOG.infof("ended a watch of %s%s: its client stopped reading (%s); %s", resource(),
                spec.range().namespace() == null ? "" : " in " + spec.range().namespace(), how, resume);
        finish(true, sink::abort);
    }

    /** Something went wrong serving this watch: drop it, so that the client re-watches, and keep the others going. */
    @Override
    public void fail(RuntimeException e) {
        LOG.errorf(e, "a watch of %s failed; its connection is closed", resource());
        if (state != State.ENDED) {
            finish(false, sink::abort);
        }
    }

    /**
     * The store's state was replaced at {@code revision} (its etcd watch fell behind etcd's compaction): nothing
     * before it can be served any more, so the client is told to relist, as from a resourceVersion too old.
     */
    @Override
    public void stateReplaced(long revision) {
        if (state != State.ENDED) {
            expire(initialEvents != null ? initialEvents.revision() : position, revision);
        }
    }

    @Override
    public void recheckGrants() {
        if (state != State.ENDED && !spec.grant().holds()) {
            end();
        }
    }

    private void fellOutOfHistory(long oldest) {
        if (wentLive) {
            endSlow("its resourceVersion " + position + " left the history");
        } else {
            expire(spec.initialEvents() ? position : spec.resourceVersion(), oldest);
        }
    }

    /** Tells the client to relist, the Kubernetes way: an ERROR event carrying a 410 Expired Status. */
    private void expire(long requested, long oldest) {
        ApiException gone = ApiException.expired("too old resource version: " + requested + " (" + oldest + ")");
        // an EventSource is told to forget its Last-Event-ID, so that reconnecting starts from a fresh snapshot
        send(sink.format().frame("ERROR", spec.rendering().renderControl(StatusBody.of(gone)),
                WireFormat.RESET_ID));
        finish(false, sink::end);
    }

    /** Writes a BOOKMARK at {@code revision} and counts it. */
    private void writeBookmark(long revision, boolean initialEventsEnd) {
        send(sink.format().bookmark(spec.type(), revision, initialEventsEnd, spec.rendering()));
        loop.bookmarkSent();
    }
}
