package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;
import io.watchgate.objects.Selection;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusBody;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Scan;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
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
 * <p>Longer than the house's 350 lines on purpose: it is one state machine (snapshot, catching up, live,
 * stalled, ended), and every transition reads best next to the others. What is not a transition lives elsewhere:
 * which events it is sent in {@link EventFilter}, the bytes of events, bookmarks and heartbeats in
 * {@link WireFormat}.
 */
public final class Watcher {

    private static final Logger LOG = Logger.getLogger(Watcher.class);
    /**
     * Netty's default high-water mark, which Vert.x keeps: a sink reports full once more than this is queued, so
     * a watcher that stops at full has at most this plus its last frame queued. (Netty copies each frame into a
     * direct buffer of the connection's, so those bytes are the watcher's own, not shared.)
     */
    private static final long QUEUED_BEFORE_FULL = 64 * 1024;

    public enum TimerKind { END, BOOKMARK, HEARTBEAT }

    private enum State { SNAPSHOT, CATCHING_UP, LIVE, STALLED, ENDED }

    private final WatchSpec spec;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final Store store;
    private final EncodedEvents frames;
    private final WatchConfig config;
    private State state = State.SNAPSHOT;
    private long position;
    private boolean wentLive;
    private int missed;
    private long missedBytes;
    private int drainWait;
    /** The bytes of the last frame written: with a full queue, it is most of what is queued. */
    private int lastWritten;
    /** The bytes counted against the memory budget while waiting for a drain, or 0. */
    private long pinned;

    public Watcher(WatchSpec spec, WatchSink sink, WatchLoop loop, Store store, EncodedEvents frames,
            WatchConfig config) {
        this.spec = spec;
        this.sink = sink;
        this.loop = loop;
        this.store = store;
        this.frames = frames;
        this.config = config;
    }

    public WatchSpec spec() {
        return spec;
    }

    public String resource() {
        return spec.type().resource();
    }

    /** How this watch travels (see {@link WatchSink#form()}). */
    public String form() {
        return sink.form();
    }

    public boolean isLive() {
        return state == State.LIVE;
    }

    /** Starts the watch; the store has reached the spec's required revision. */
    public void start() {
        sink.onClose(this::closed);
        if (state == State.ENDED) {
            return; // the client left before the watch started
        }
        loop.schedule(this, TimerKind.END, spec.lifetime(config).toMillis());
        if (sendsBookmarks()) {
            loop.schedule(this, TimerKind.BOOKMARK, config.bookmarkInterval().toMillis());
        }
        if (isEventStream()) {
            loop.schedule(this, TimerKind.HEARTBEAT, config.sseHeartbeat().toMillis());
        }
        if (spec.initialEvents()) {
            sendSnapshot(store.currentRevision(), null);
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
     * Sends the snapshot at {@code snapshot} as ADDED events, a stretch of keys at a time, yielding between
     * stretches and waiting whenever the client's buffers are full.
     */
    private void sendSnapshot(long snapshot, ObjectKey after) {
        if (state != State.SNAPSHOT) {
            return;
        }
        Scan scan;
        try {
            Selection selection = spec.selection();
            scan = store.scan(spec.range(), snapshot, after, config.batchSize(),
                    object -> selection.matches(object.tree()));
        } catch (StoreException.Compacted e) {
            expire(snapshot, e.oldest());
            return;
        }
        WireFormat format = sink.format();
        List<StoredObject> matches = scan.matches();
        int sent = 0;
        try {
            for (int i = 0; i < matches.size(); i++) {
                StoredObject object = matches.get(i);
                // no id: a client cut off halfway through the snapshot must start over, not resume inside it
                send(format.frame("ADDED", spec.rendering().bytesOf(object), WireFormat.NO_ID));
                sent++;
                boolean lastOfAll = scan.isDone() && i == matches.size() - 1;
                if (!lastOfAll && sink.writeQueueFull()) {
                    ObjectKey next = object.key();
                    afterDrain(() -> sendSnapshot(snapshot, next));
                    return;
                }
            }
        } finally {
            loop.eventsSent(sent); // counted once a batch
        }
        if (!scan.isDone()) {
            ObjectKey next = scan.lastExamined();
            soon(() -> sendSnapshot(snapshot, next));
            return;
        }
        position = snapshot;
        if (spec.initialEventsEnd() || (isEventStream() && spec.initialEvents())) {
            writeBookmark(snapshot, true);
        }
        state = State.CATCHING_UP;
        if (sink.writeQueueFull()) {
            afterDrain(this::catchUp);
        } else {
            soon(this::catchUp);
        }
    }

    /**
     * Runs {@code next} once the client has taken up its backlog. Vert.x calls a drain handler at every return to
     * writable, so each wait gets a number and only the newest wait's action runs, once.
     */
    private void afterDrain(Runnable next) {
        int wait = ++drainWait;
        pin();
        sink.onDrain(() -> {
            if (wait == drainWait && state != State.ENDED) {
                drainWait++;
                unpin();
                guarded(next);
            }
        });
    }

    /** Waiting for a drain: what is queued counts against the memory budget, and what goes by is counted. */
    private void pin() {
        if (pinned == 0) {
            pinned = lastWritten + QUEUED_BEFORE_FULL;
            missed = 0;
            missedBytes = 0;
            loop.pinned(this, pinned);
        }
    }

    private void unpin() {
        if (pinned != 0) {
            pinned = 0;
            loop.unpinned(this);
        }
    }

    private void send(Buffer frame) {
        sink.write(frame);
        lastWritten = frame.length();
    }

    /** Runs {@code task} on the loop later, ending this watch alone if it throws. */
    private void soon(Runnable task) {
        loop.runSoon(() -> guarded(task));
    }

    private void guarded(Runnable task) {
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
        List<ChangeEvent> events;
        try {
            events = store.eventsAfter(position, config.batchSize());
        } catch (StoreException.Compacted e) {
            fellOutOfHistory(e.oldest());
            return;
        }
        int sent = 0;
        try {
            for (ChangeEvent event : events) {
                position = event.revision();
                Buffer frame = select(frames.of(event));
                if (frame != null) {
                    send(frame);
                    sent++;
                    if (sink.writeQueueFull()) {
                        stall();
                        return;
                    }
                }
            }
        } finally {
            loop.eventsSent(sent); // counted once a batch
        }
        if (position >= head) {
            goLive();
        } else {
            soon(this::catchUp);
        }
    }

    private void goLive() {
        state = State.LIVE;
        wentLive = true;
        drainWait++; // no earlier wait may act on a live watcher
        unpin();
    }

    /**
     * An event as its loop fans it out, in revision order.
     *
     * @return whether it was written to this watcher's client (the loop counts them once per event)
     */
    public boolean offer(EncodedEvent event) {
        switch (state) {
            case LIVE -> {
                if (event.revision() <= position) {
                    return false; // delivered from history already
                }
                position = event.revision();
                Buffer frame = select(event);
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
                if (pinned != 0 && state != State.ENDED && spec.range().contains(event.event().key())) {
                    missedBytes += event.event().object().json().length;
                    if (++missed > config.maxBacklog()) {
                        endSlow(missed + " events behind");
                    } else if (missedBytes > config.maxBacklogBytes()) {
                        endSlow(missedBytes + " bytes of events behind");
                    }
                }
                return false;
            }
        }
    }

    /** The loop missed events after {@code through}: a live watcher fetches them from history. */
    public void fellBehind(long through) {
        if (state == State.LIVE) {
            position = Math.max(position, through);
            state = State.CATCHING_UP;
            soon(this::catchUp);
        }
    }

    private void stall() {
        state = State.STALLED;
        afterDrain(() -> {
            state = State.CATCHING_UP;
            catchUp();
        });
    }

    /** The frame this watcher gets for {@code event}, or null when the event is not its business. */
    private Buffer select(EncodedEvent encoded) {
        EncodedEvent.Variant variant = EventFilter.variantFor(encoded.event(), spec.range(), spec.selection());
        return variant == null ? null : encoded.frame(sink.format(), variant, spec.rendering());
    }

    public void onTimer(TimerKind kind) {
        if (state == State.ENDED) {
            return;
        }
        switch (kind) {
            case END -> end();
            case BOOKMARK -> {
                if (state == State.LIVE) {
                    // bookmarks are a courtesy: a watcher busy catching up or stalled just skips one
                    writeBookmark(bookmarkRevision(), false);
                    stallIfFull();
                }
                loop.schedule(this, TimerKind.BOOKMARK, config.bookmarkInterval().toMillis());
            }
            case HEARTBEAT -> {
                if (state == State.LIVE) {
                    send(sink.format().heartbeat());
                    stallIfFull();
                }
                loop.schedule(this, TimerKind.HEARTBEAT, config.sseHeartbeat().toMillis());
            }
        }
    }

    private void stallIfFull() {
        if (state == State.LIVE && sink.writeQueueFull()) {
            stall();
        }
    }

    /** A live watcher has been offered everything its loop fanned out, and has handled its own position. */
    private long bookmarkRevision() {
        return Math.max(position, loop.lastRevision());
    }

    /** Ends the stream cleanly, after a last bookmark so that the client resumes without replay. */
    public void end() {
        if (state == State.ENDED) {
            return;
        }
        if (state == State.LIVE && sendsBookmarks()) {
            writeBookmark(bookmarkRevision(), false);
        }
        state = State.ENDED;
        loop.detach(this, false);
        sink.end();
    }

    private void closed() {
        if (state != State.ENDED) {
            state = State.ENDED;
            loop.detach(this, false);
        }
    }

    /** The server is short of memory, and this watcher's client is not reading: it re-watches later. */
    public void endForMemory() {
        if (state != State.ENDED) {
            endSlow("the server is short of memory");
        }
    }

    private void endSlow(String how) {
        LOG.infof("ended a watch of %s%s: its client stopped reading (%s); it may re-watch from resourceVersion %d",
                resource(), spec.range().namespace() == null ? "" : " in " + spec.range().namespace(), how,
                position);
        state = State.ENDED;
        loop.detach(this, true);
        sink.abort();
    }

    /** Something went wrong serving this watch: drop it, so that the client re-watches, and keep the others going. */
    public void fail(RuntimeException e) {
        LOG.errorf(e, "a watch of %s failed; its connection is closed", resource());
        if (state != State.ENDED) {
            state = State.ENDED;
            loop.detach(this, false);
            sink.abort();
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
        state = State.ENDED;
        loop.detach(this, false);
        sink.end();
    }

    /** Writes a BOOKMARK at {@code revision} and counts it. */
    private void writeBookmark(long revision, boolean initialEventsEnd) {
        send(sink.format().bookmark(spec.type(), revision, initialEventsEnd, spec.rendering()));
        loop.bookmarkSent();
    }

    private boolean sendsBookmarks() {
        // an EventSource cannot ask, and bookmarks keep its Last-Event-ID fresh
        return spec.bookmarks() || isEventStream();
    }

    private boolean isEventStream() {
        return sink.format() == WireFormat.SERVER_SENT_EVENTS;
    }
}
