package io.watchgate.watch.stream;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.watchgate.status.ApiException;
import io.watchgate.store.Store;
import io.watchgate.watch.EncodedEvent;
import io.watchgate.watch.EncodedEvents;
import io.watchgate.watch.InitialEvents;
import io.watchgate.watch.Stall;
import io.watchgate.watch.Subscriber;
import io.watchgate.watch.WatchConfig;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WireFormat;
import io.watchgate.watch.fanout.WatchHubs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Many watches on one connection, in one order: every event of every watch in revision order, whatever its type,
 * because the stream has one position and reads the one history all types share. So one number, the last id its
 * client saw, resumes every watch of it exactly.
 *
 * <p>The same state machine as a single {@link io.watchgate.watch.Watcher} (snapshots, catching up, live, stalled,
 * ended), for a set of watches: each one's events are decided as for a single watch, and its own revision to start
 * after ({@link StreamedWatch#since()}) keeps it from events that came before it asked. The snapshots of the watches
 * that ask for initial events are all taken at the revision the stream starts at, once history has caught up to it,
 * and no event carries an id until each of them has ended with its bookmark: a client cut off before that starts
 * over. Loop thread only.
 */
public final class WatchStream implements Subscriber {

    private static final Logger LOG = Logger.getLogger(WatchStream.class);

    private enum State { CATCHING_UP, SNAPSHOT, LIVE, STALLED, COALESCING, ENDED }

    private final List<StreamedWatch> watches;
    private final StreamFrames format;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final Store store;
    private final WatchConfig config;
    private final Duration lifetime;
    private final Stall stall;
    private final StreamReplay history;
    /** What a coalescing stream keeps while its client is behind (see {@link Coalescer}); null for the others. */
    private final Coalescer coalescer;
    private State state = State.CATCHING_UP;
    private long position;
    /** The revision the snapshots are taken at: the store's when the stream started. */
    private long snapshotRevision;
    /** The watches whose initial events are still to be sent, the first one being sent. */
    private final List<StreamedWatch> snapshotsDue = new ArrayList<>();
    private final List<StreamedWatch> snapshotsSent = new ArrayList<>();
    private InitialEvents initialEvents;
    /** The newest id written: a bookmark that would not move it is not sent. */
    private long lastId;
    private boolean wentLive;

    /**
     * @param watches  its watches, each already authorized and counted as admitted
     * @param lifetime when the server ends it
     * @param coalesce for a stream that asked to coalesce, the most objects it keeps while its client is behind
     *                 (see {@link Coalescer}); 0 for a stream whose client falling behind is ended, as a single watch
     */
    public WatchStream(List<StreamedWatch> watches, WatchSink sink, WatchLoop loop, Store store, EncodedEvents frames,
            WatchConfig config, Duration lifetime, int coalesce) {
        this.coalescer = coalesce > 0 ? new Coalescer(coalesce, config.maxBacklogBytes()) : null;
        this.watches = new ArrayList<>(watches);
        this.format = StreamFrames.of(sink.format());
        this.sink = sink;
        this.loop = loop;
        this.store = store;
        this.config = config;
        this.lifetime = lifetime;
        this.stall = new Stall(this, sink, loop, config);
        this.history = new StreamReplay(this.watches, format, store, frames, config, sink, loop, this::send);
    }

    /** The event that tells a client one watch of its stream in {@code wire} was refused: the others go on. */
    public static Buffer refusal(WireFormat wire, StreamedWatch watch, ApiException why) {
        return StreamFrames.of(wire).error(watch, why);
    }

    @Override
    public List<String> watchedResources() {
        return watches.stream().map(watch -> watch.spec().type().resource()).toList();
    }

    @Override
    public String form() {
        return WatchHubs.STREAM;
    }

    @Override
    public boolean hasEnded() {
        return state == State.ENDED;
    }

    public boolean isLive() {
        return state == State.LIVE;
    }

    @Override
    public void start() {
        sink.onClose(this::closed);
        if (state == State.ENDED) {
            return;
        }
        loop.schedule(this, TimerKind.END, lifetime.toMillis());
        loop.schedule(this, TimerKind.BOOKMARK, config.bookmarkInterval().toMillis());
        if (format == StreamFrames.EVENT_STREAM) {
            loop.schedule(this, TimerKind.HEARTBEAT, config.sseHeartbeat().toMillis());
        }
        snapshotRevision = store.currentRevision();
        position = snapshotRevision; // where a stream that opens with no watch (a WebSocket's) starts
        for (StreamedWatch watch : watches) {
            long resourceVersion = watch.spec().resourceVersion();
            watch.startAfter(!watch.spec().initialEvents() && resourceVersion > 0 ? resourceVersion : snapshotRevision);
            position = Math.min(position, watch.since());
            if (watch.spec().initialEvents()) {
                snapshotsDue.add(watch);
            }
        }
        lastId = position;
        catchUp();
    }

    /** From history, a batch a turn, up to the snapshots' revision while they are due, then up to the store's head. */
    private void catchUp() {
        if (state != State.CATCHING_UP) {
            return;
        }
        if (!snapshotsDue.isEmpty() && position >= snapshotRevision) {
            state = State.SNAPSHOT;
            sendSnapshots();
            return;
        }
        long head = store.currentRevision();
        if (position >= head && snapshotsDue.isEmpty()) {
            goLive();
            return;
        }
        StreamReplay.Stop stop;
        try {
            stop = history.sendBatch(position, snapshotsDue.isEmpty() ? Long.MAX_VALUE : snapshotRevision,
                    snapshotsDue.isEmpty());
        } finally {
            position = history.handledThrough();
        }
        switch (stop) {
            case CLIENT_FULL -> stall();
            case COMPACTED -> fellOutOfHistory(history.oldestRetained());
            case BATCH_SENT -> {
                if (position >= head && snapshotsDue.isEmpty()) {
                    goLive();
                } else {
                    soon(this::catchUp);
                }
            }
        }
    }

    /** Each due watch's initial events in turn, a stretch at a time; then their bookmarks, and ids from then on. */
    private void sendSnapshots() {
        while (state == State.SNAPSHOT && !snapshotsDue.isEmpty()) {
            StreamedWatch watch = snapshotsDue.get(0);
            if (watch.hasEnded()) {
                snapshotsDue.remove(0);
                initialEvents = null;
                continue;
            }
            if (initialEvents == null) {
                initialEvents = new InitialEvents(snapshotRevision, watch.spec(), store, config, sink, loop,
                        object -> format.event(WireFormat.NO_ID, "ADDED", watch,
                                Buffer.buffer(Unpooled.wrappedBuffer(object))),
                        this::send);
            }
            switch (initialEvents.sendStretch()) {
                case CLIENT_FULL -> {
                    stall.afterDrain(this::sendSnapshots);
                    return;
                }
                case STRETCH_READ -> {
                    soon(this::sendSnapshots);
                    return;
                }
                case COMPACTED -> {
                    fellOutOfHistory(initialEvents.oldestRetained());
                    return;
                }
                case ALL_SENT -> {
                    snapshotsDue.remove(0);
                    snapshotsSent.add(watch);
                    initialEvents = null;
                }
            }
        }
        if (state != State.SNAPSHOT) {
            return;
        }
        snapshotsSent.removeIf(StreamedWatch::hasEnded);
        for (int i = 0; i < snapshotsSent.size(); i++) {
            long id = i == snapshotsSent.size() - 1 ? snapshotRevision : WireFormat.NO_ID;
            send(format.initialEventsEnd(snapshotsSent.get(i), snapshotRevision, id));
            loop.bookmarkSent();
        }
        snapshotsSent.clear();
        lastId = snapshotRevision;
        state = State.CATCHING_UP;
        if (sink.writeQueueFull()) {
            stall.afterDrain(this::catchUp);
        } else {
            soon(this::catchUp);
        }
    }

    private void goLive() {
        state = State.LIVE;
        wentLive = true;
        stall.cancel();
    }

    /**
     * Adds a watch to the running stream (a WebSocket client's {@code watch} message); it was admitted and
     * authorized. It starts where the stream is: with its initial events at the store's newest revision (the stream's
     * other watches catching up to it from history first, so that one order holds), or with the changes after the
     * stream's position or after its own later resourceVersion. Not before: the stream is past it.
     *
     * @throws ApiException 400 for a resourceVersion the stream has passed
     */
    public void add(StreamedWatch watch) {
        if (state == State.ENDED) {
            return;
        }
        if (state == State.LIVE) {
            // it was offered every event its loop fanned out of the types it watches, and the others are not its
            position = Math.max(position, loop.lastRevision());
        }
        long resourceVersion = watch.spec().resourceVersion();
        if (watch.spec().initialEvents()) {
            if (snapshotsDue.isEmpty()) {
                // the newest state; the stream's other watches catch up to it from history first
                snapshotRevision = Math.max(position, store.currentRevision());
            }
            watch.startAfter(snapshotRevision);
            snapshotsDue.add(watch);
        } else if (resourceVersion > 0 && resourceVersion < position) {
            throw ApiException.badRequest("resourceVersion " + resourceVersion + " is before the stream's position "
                    + position + ": a watch added to a running stream starts there or later (ask for its initial "
                    + "events, or give its resourceVersion when the stream opens)");
        } else {
            watch.startAfter(Math.max(resourceVersion, position));
        }
        watches.add(watch);
        loop.watchAdded(this, watch.spec().type().resource());
        if (state == State.LIVE && !snapshotsDue.isEmpty()) {
            state = State.CATCHING_UP; // live events wait in history until the new watch has its state
            soon(this::catchUp);
        }
    }

    /** Ends the watch tagged {@code tag} (a WebSocket client's {@code stop} message); false if there is none. */
    public boolean stop(String tag) {
        for (StreamedWatch watch : watches) {
            if (watch.tag().equals(tag)) {
                removed(watch);
                return true;
            }
        }
        return false;
    }

    /** Whether one of its watches is tagged {@code tag}. */
    public boolean has(String tag) {
        return watches.stream().anyMatch(watch -> watch.tag().equals(tag));
    }

    public int watchCount() {
        return watches.size();
    }

    /** Tells the client of something refused: of one watch when {@code tag} is given, else of the stream. */
    public void refuse(String tag, ApiException e) {
        if (state == State.ENDED) {
            return;
        }
        send(tag == null ? format.streamNotice(e) : format.error(new StreamedWatch(tag, "", null), e));
        stallIfFull();
    }

    private void removed(StreamedWatch watch) {
        watch.end();
        watches.remove(watch);
        loop.watchEnded(this, watch.spec().type().resource());
    }

    @Override
    public boolean offer(EncodedEvent event) {
        if (state == State.COALESCING) {
            if (event.revision() > position) {
                position = event.revision();
                String over = coalescer.add(event, watches);
                if (over != null) {
                    endSlow(over);
                }
            }
            return false;
        }
        if (state == State.LIVE) {
            if (event.revision() <= position) {
                return false; // delivered from history already
            }
            position = event.revision();
            StreamFrames.Delivery delivery = format.of(event, watches, true);
            if (delivery == null) {
                return false;
            }
            for (Buffer frame : delivery.frames()) {
                send(frame);
            }
            if (delivery.events() > 1) {
                loop.eventsSent(delivery.events() - 1); // the loop counts one per subscriber
            }
            if (sink.writeQueueFull()) {
                stall();
            }
            return true;
        }
        // it will come from history; but a client that stopped reading has a bound
        if (stall.isPinned() && state != State.ENDED && concernsAny(event)) {
            String behind = stall.wentBy(event.event().object().json().length);
            if (behind != null) {
                endSlow(behind);
            }
        }
        return false;
    }

    private boolean concernsAny(EncodedEvent event) {
        for (StreamedWatch watch : watches) {
            if (!watch.hasEnded() && watch.spec().range().contains(event.event().key())) {
                return true;
            }
        }
        return false;
    }

    private void stall() {
        if (coalescer != null && state == State.LIVE) {
            state = State.COALESCING; // from now on each object's latest change is kept, not each event
            stall.afterDrain(this::sendCoalesced);
            return;
        }
        state = State.STALLED;
        stall.afterDrain(() -> {
            state = State.CATCHING_UP;
            catchUp();
        });
    }

    /** What was kept while the client was behind, oldest first, as far as it reads; then live again. */
    private void sendCoalesced() {
        long bytes = 0;
        while (state == State.COALESCING && !coalescer.isEmpty()) {
            int events = 0;
            for (Buffer frame : coalescer.takeOldest(format)) {
                send(frame);
                bytes += frame.length();
                events++;
            }
            loop.eventsSent(events);
            loop.coalescedSent(events);
            if (sink.writeQueueFull()) {
                stall.afterDrain(this::sendCoalesced);
                return;
            }
            if (bytes >= config.batchBytes()) {
                soon(this::sendCoalesced);
                return;
            }
        }
        if (state == State.COALESCING) {
            goLive();
        }
    }

    @Override
    public void onTimer(TimerKind kind) {
        if (state == State.ENDED) {
            return;
        }
        switch (kind) {
            case END -> end();
            case BOOKMARK -> {
                if (state == State.LIVE) {
                    writeBookmark();
                    stallIfFull();
                }
                loop.schedule(this, kind, config.bookmarkInterval().toMillis());
            }
            case HEARTBEAT -> {
                if (state == State.LIVE) {
                    send(WireFormat.SERVER_SENT_EVENTS.heartbeat());
                    stallIfFull();
                }
                loop.schedule(this, kind, config.sseHeartbeat().toMillis());
            }
        }
    }

    /**
     * A live stream has been offered every event its loop fanned out, of every type it watches: its position moves
     * to the loop's, and a bookmark there lets an idle stream resume without reading the history between.
     */
    private void writeBookmark() {
        position = Math.max(position, loop.lastRevision());
        if (position > lastId) {
            send(format.bookmark(position));
            loop.bookmarkSent();
        }
    }

    private void stallIfFull() {
        if (state == State.LIVE && sink.writeQueueFull()) {
            stall();
        }
    }

    private void send(Buffer frames) {
        sink.write(frames);
        stall.wrote(frames.length());
    }

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

    @Override
    public void end() {
        if (state == State.ENDED) {
            return;
        }
        if (state == State.LIVE) {
            writeBookmark();
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

    @Override
    public void endForMemory() {
        if (state != State.ENDED) {
            endSlow("the server is short of memory");
        }
    }

    private void endSlow(String how) {
        LOG.infof("ended a stream of %d watches: its client stopped reading (%s); it may resume from %d",
                watches.size(), how, lastId);
        state = State.ENDED;
        loop.detach(this, true);
        sink.abort();
    }

    @Override
    public void fail(RuntimeException e) {
        LOG.errorf(e, "a stream of %d watches failed; its connection is closed", watches.size());
        if (state != State.ENDED) {
            state = State.ENDED;
            loop.detach(this, false);
            sink.abort();
        }
    }

    @Override
    public void stateReplaced(long revision) {
        if (state != State.ENDED) {
            expire(position, revision);
        }
    }

    private void fellOutOfHistory(long oldest) {
        if (wentLive) {
            endSlow("its resourceVersion " + position + " left the history");
        } else {
            expire(position, oldest);
        }
    }

    /** The stream's position is older than the history: one ERROR for the whole stream, and every watch relists. */
    private void expire(long requested, long oldest) {
        send(format.streamError(ApiException.expired("too old resource version: " + requested + " (" + oldest
                + "): the stream cannot resume there; relist each of its watches")));
        state = State.ENDED;
        loop.detach(this, false);
        sink.end();
    }

    /** Each watch whose grant no longer holds gets a 403 of its own and ends; the others go on. */
    @Override
    public void recheckGrants() {
        for (StreamedWatch watch : watches) {
            if (!watch.hasEnded() && !watch.spec().grant().holds()) {
                send(format.error(watch, new ApiException(403, "Forbidden", "the watch " + watch.url()
                        + " is no longer allowed: its user's permissions changed, or the session ended",
                        ApiException.Details.NONE, null, null)));
                removed(watch);
                recheckGrants(); // the list changed under the loop: go over it again
                return;
            }
        }
        if (watches.isEmpty() && format == StreamFrames.EVENT_STREAM) {
            end(); // nothing left to watch; a WebSocket client may add more
        }
    }
}
