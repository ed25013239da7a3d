package io.watchgate.watch.stream;

import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.watchgate.store.Store;
import io.watchgate.watch.InitialEvents;
import io.watchgate.watch.WatchConfig;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WireFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The initial events of a stream's watches that ask for them: every one's at the same revision, one watch after
 * another and a stretch at a time (as a single watch's, through {@link InitialEvents}), then each watch's
 * {@code k8s.io/initial-events-end} bookmark, only the last of which carries an id: a client cut off before it has
 * every watch's state starts over. Which revision, and what the stream does between stretches, is its stream's
 * call. Loop thread only, as its stream.
 */
final class StreamSnapshots {

    /** Why a stretch stopped, as {@link InitialEvents.Stop}; {@code ALL_SENT} once the bookmarks are written too. */
    enum Stop { CLIENT_FULL, STRETCH_READ, COMPACTED, ALL_SENT }

    private final StreamFrames format;
    private final Store store;
    private final WatchConfig config;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final Consumer<Buffer> send;
    /** The watches whose initial events are still to be sent, the first one being sent. */
    private final List<StreamedWatch> due = new ArrayList<>();
    private final List<StreamedWatch> sent = new ArrayList<>();
    private long revision;
    private InitialEvents cursor;
    private long oldestRetained;

    StreamSnapshots(StreamFrames format, Store store, WatchConfig config, WatchSink sink, WatchLoop loop,
            Consumer<Buffer> send) {
        this.format = format;
        this.store = store;
        this.config = config;
        this.sink = sink;
        this.loop = loop;
        this.send = send;
    }

    boolean isDue() {
        return !due.isEmpty();
    }

    /** The revision the snapshots due are taken at. */
    long revision() {
        return revision;
    }

    long oldestRetained() {
        return oldestRetained;
    }

    /**
     * Adds {@code watch}'s initial events: at {@code revision} when none are due, else at the revision of those
     * (then its changes come after that revision).
     */
    void add(StreamedWatch watch, long revision) {
        if (due.isEmpty()) {
            this.revision = revision;
        }
        watch.startAfter(this.revision);
        watch.awaitSnapshot(true);
        due.add(watch);
    }

    /**
     * Moves the snapshots due, none begun, to {@code later}: a stream that kept only the latest changes while its
     * client was behind has no history to send between their revision and its position.
     */
    void moveTo(long later) {
        if (cursor == null && !due.isEmpty() && later > revision) {
            revision = later;
            due.forEach(watch -> watch.startAfter(later));
        }
    }

    /** Forgets a watch that ended, unless its initial events are being sent (the next stretch sees it ended). */
    void forget(StreamedWatch watch) {
        if (!(cursor != null && due.get(0) == watch)) {
            due.remove(watch);
        }
        sent.remove(watch);
    }

    /** Sends initial events, watch after watch, until one stretch stops; after the last, every watch's bookmark. */
    Stop sendStretch() {
        while (!due.isEmpty()) {
            StreamedWatch watch = due.get(0);
            if (watch.hasEnded()) {
                due.remove(0);
                cursor = null;
                continue;
            }
            if (cursor == null) {
                cursor = new InitialEvents(revision, watch.spec(), store, config, sink, loop,
                        object -> format.event(WireFormat.NO_ID, "ADDED", watch,
                                Buffer.buffer(Unpooled.wrappedBuffer(object))),
                        send);
            }
            switch (cursor.sendStretch()) {
                case CLIENT_FULL -> {
                    return Stop.CLIENT_FULL;
                }
                case STRETCH_READ -> {
                    return Stop.STRETCH_READ;
                }
                case COMPACTED -> {
                    oldestRetained = cursor.oldestRetained();
                    return Stop.COMPACTED;
                }
                case ALL_SENT -> {
                    due.remove(0);
                    sent.add(watch);
                    watch.awaitSnapshot(false);
                    cursor = null;
                }
            }
        }
        sent.removeIf(StreamedWatch::hasEnded);
        for (int i = 0; i < sent.size(); i++) {
            long id = i == sent.size() - 1 ? revision : WireFormat.NO_ID;
            send.accept(format.initialEventsEnd(sent.get(i), revision, id));
            loop.bookmarkSent();
        }
        sent.clear();
        return Stop.ALL_SENT;
    }
}
