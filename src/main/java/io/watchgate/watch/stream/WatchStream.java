package io.watchgate.watch.stream;

import io.vertx.core.buffer.Buffer;
import io.watchgate.status.ApiException;
import io.watchgate.store.Store;
import io.watchgate.watch.EncodedEvent;
import io.watchgate.watch.EncodedEvents;
import io.watchgate.watch.HistoryReplay;
import io.watchgate.watch.Stall;
import io.watchgate.watch.Subscriber;
import io.watchgate.watch.WatchConfig;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WatchTimers;
import io.watchgate.watch.WireFormat;
import io.watchgate.watch.fanout.WatchHubs;
import java.time.Duration;
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

    private enum State { CATCHING_UP, LIVE, STALLED, COALESCING, ENDED }

    private final StreamedWatches watches;
    private final StreamFrames format;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final Store store;
    private final WatchConfig config;
    private final WatchTimers timers;
    private final Stall stall;
    private final StreamCatchUp catchingUp;
    /** What a coalescing stream keeps while its client is behind (see {@link Coalescer}); null for the others. */
    private final Coalescer coalescer;
    private State state = State.CATCHING_UP;
    private long position;
    private final StreamSnapshots snapshots;
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
        this.watches = new StreamedWatches(watches);
        this.format = StreamFrames.of(sink.format());
        this.sink = sink;
        this.loop = loop;
        this.store = store;
        this.config = config;
        this.timers = new WatchTimers(this, lifetime, true, sink, loop, config);
        this.stall = new Stall(this, sink, loop, config);
        this.snapshots = new StreamSnapshots(format, store, config, sink, loop, this::send);
        this.catchingUp = new StreamCatchUp(new HistoryReplay(format.replaying(this.watches, snapshots), store, frames,
                config, sink, loop, this::send), snapshots, store);
    }

    /** The event that tells a client one watch of its stream in {@code wire} was refused: the others go on. */
    public static Buffer refusal(WireFormat wire, StreamedWatch watch, ApiException why) {
        return StreamFrames.of(wire).error(watch, why);
    }

    @Override
    public List<String> watchedResources() {
        return watches.resources();
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
        timers.start();
        position = watches.placeAll(store.currentRevision(), snapshots);
        lastId = position;
        catchUp();
    }

    /** Gets the client up to date, a step a turn (see {@link StreamCatchUp}); then live. */
    private void catchUp() {
        if (state != State.CATCHING_UP) {
            return;
        }
        StreamCatchUp.Step step;
        try {
            step = catchingUp.step(position);
        } finally {
            position = catchingUp.position();
        }
        switch (step) {
            case CLIENT_FULL -> stall();
            case YIELD -> soon(this::catchUp);
            case COMPACTED -> fellOutOfHistory(catchingUp.oldestRetained());
            case CAUGHT_UP -> goLive();
        }
    }

    private void goLive() {
        lastId = Math.max(lastId, position);
        state = State.LIVE;
        wentLive = true;
        stall.cancel();
    }

    /** Its watches, as {@link StreamMembers} changes them. */
    StreamedWatches watches() {
        return watches;
    }

    /**
     * Where a watch added now starts: the stream's position, which a live stream first moves to its loop's (it was
     * offered every event the loop fanned out of the types it watches, and the others are not its business); and the
     * revision of a snapshot it asks for, the newest.
     */
    void place(StreamedWatch watch) {
        if (state == State.LIVE) {
            position = Math.max(position, loop.lastRevision());
        }
        watches.place(watch, position, Math.max(position, store.currentRevision()), snapshots);
        loop.watchAdded(this, watch.spec().type().storageResource());
        if (state == State.LIVE && snapshots.isDue()) {
            state = State.CATCHING_UP; // live events wait in history until the new watch has its state
            soon(this::catchUp);
        }
    }

    /**
     * Answers a client's message, unless the stream has ended: a client that sends messages without reading the
     * answers (its buffers full) is cut off, as any client that stops reading.
     */
    void tell(Buffer frame) {
        if (state == State.ENDED) {
            return;
        }
        if (sink.writeQueueFull()) {
            endSlow("it sent messages without reading the answers");
            return;
        }
        send(frame);
        stallIfFull();
    }

    StreamFrames format() {
        return format;
    }

    /**
     * A watch its client stopped: removed, and the client told so, after which nothing of it comes. The answer is
     * sent even to a client that is behind (its earlier events are queued before it, and nothing kept for the watch
     * is sent); while the stream waits for that client to drain, each answer counts as an event gone by, so that a
     * client that adds and stops watches without reading is ended as any client that stops reading.
     */
    void stopped(StreamedWatch watch) {
        if (state == State.ENDED) {
            return;
        }
        watches.remove(watch);
        forget(watch);
        Buffer answer = format.stopped(watch);
        String behind = stall.isPinned() ? stall.wentBy(answer.length()) : null;
        if (behind != null) {
            endSlow(behind);
            return;
        }
        send(answer);
        stallIfFull();
    }

    /** A watch that ended: nothing kept for it stays, and its loop counts it no more. */
    private void forget(StreamedWatch watch) {
        snapshots.forget(watch);
        if (coalescer != null) {
            coalescer.forget(watch);
        }
        loop.watchEnded(this, watch.spec().type().storageResource());
    }

    @Override
    public boolean offer(EncodedEvent event) {
        if (state == State.COALESCING) {
            if (event.revision() > position) {
                position = event.revision();
                String over = coalescer.add(event, watches);
                if (over != null) {
                    endSlow(over);
                } else {
                    stall.alsoKeeps(coalescer.bytes()); // counted against the memory budget, as queued bytes are
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
        if (stall.isPinned() && state != State.ENDED && watches.concern(event.event().key())) {
            String behind = stall.wentBy(event.event().object().json().length);
            if (behind != null) {
                endSlow(behind);
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
        if (state != State.COALESCING) {
            return;
        }
        switch (coalescer.send(format, this::send, sink, loop, config.batchBytes())) {
            case CLIENT_FULL -> stall.afterDrain(this::sendCoalesced);
            case BATCH_SENT -> soon(this::sendCoalesced);
            case ALL_SENT -> {
                if (snapshots.isDue()) { // a watch added meanwhile has its state to get first, as of now
                    snapshots.moveTo(position);
                    state = State.CATCHING_UP;
                    catchUp();
                } else {
                    goLive();
                }
            }
        }
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
        if (state == State.LIVE) { // bookmarks and heartbeats are a courtesy: a stream behind skips them
            if (kind == TimerKind.BOOKMARK) {
                writeBookmark();
            } else {
                send(WireFormat.SERVER_SENT_EVENTS.heartbeat());
            }
            stallIfFull();
        }
        timers.again(kind);
    }

    /**
     * A live stream has been offered every event its loop fanned out, of every type it watches: its position moves
     * to the loop's, and a bookmark there lets an idle stream resume without reading the history between.
     */
    private void writeBookmark() {
        position = Math.max(position, loop.lastRevision());
        if (position > lastId) {
            send(format.bookmark(position));
            lastId = position;
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
        LOG.infof("ended a stream of %d watches: its client stopped reading (%s); it may resume from %d",
                watches.size(), how, lastId);
        finish(true, sink::abort);
    }

    @Override
    public void fail(RuntimeException e) {
        LOG.errorf(e, "a stream of %d watches failed; its connection is closed", watches.size());
        if (state != State.ENDED) {
            finish(false, sink::abort);
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
        finish(false, sink::end);
    }

    /** Each watch whose grant no longer holds gets a 403 of its own and ends; the others go on. */
    @Override
    public void recheckGrants() {
        for (StreamedWatch watch : watches.removeWithdrawn()) {
            send(format.error(watch, new ApiException(403, "Forbidden", "the watch " + watch.url()
                    + " is no longer allowed: its user's permissions changed, or the session ended",
                    ApiException.Details.NONE, null, null)));
            forget(watch);
        }
        if (watches.isEmpty() && format == StreamFrames.EVENT_STREAM) {
            end(); // nothing left to watch; a WebSocket client may add more
        }
    }
}
