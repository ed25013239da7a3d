package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;
import io.watchgate.objects.Selection;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Scan;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A watch's initial events: every object of its range and selection at one revision, sent as ADDED events, as
 * kube-apiserver's watch cache sends them before the changes that follow. They go a stretch at a time, a cursor
 * over the snapshot: a stretch reads at most {@link WatchConfig#batchSize()} keys, matching or not, so that a
 * selective selector on a large collection never holds the loop, sends at most {@link WatchConfig#batchBytes()}, so
 * that large objects do not either, and stops early when the client's buffers fill.
 * What happens between stretches and after the last (yield, wait for a drain, catch up) is its watcher's call.
 * Loop thread only, as its watcher.
 */
public final class InitialEvents {

    /** Why a stretch stopped. */
    public enum Stop {
        /** The client's buffers are full: the next stretch waits for it to drain. */
        CLIENT_FULL,
        /** The stretch read all the keys, or sent all the bytes, it may: the next one waits for the loop's other work. */
        STRETCH_READ,
        /** The store no longer holds the snapshot's revision: see {@link #oldestRetained()}. */
        COMPACTED,
        /** Every initial event has been sent. */
        ALL_SENT
    }

    private final long revision;
    private final WatchSpec spec;
    private final Store store;
    private final WatchConfig config;
    private final WatchSink sink;
    private final WatchLoop loop;
    /** How an object is framed as an initial ADDED event. */
    private final Function<byte[], Buffer> frameOf;
    /** The watcher's own writing, which notes each frame for its {@link Stall}. */
    private final Consumer<Buffer> send;
    /** The key the next stretch starts after: null before the first. */
    private ObjectKey after;
    private long oldestRetained;

    InitialEvents(long revision, WatchSpec spec, Store store, WatchConfig config, WatchSink sink, WatchLoop loop,
            Consumer<Buffer> send) {
        // no id: a client cut off halfway through the snapshot must start over, not resume inside it
        this(revision, spec, store, config, sink, loop,
                object -> sink.format().frame("ADDED", object, WireFormat.NO_ID), send);
    }

    /** @param frameOf how an object is framed as an initial event: with no id to resume from */
    public InitialEvents(long revision, WatchSpec spec, Store store, WatchConfig config, WatchSink sink,
            WatchLoop loop, Function<byte[], Buffer> frameOf, Consumer<Buffer> send) {
        this.frameOf = frameOf;
        this.revision = revision;
        this.spec = spec;
        this.store = store;
        this.config = config;
        this.sink = sink;
        this.loop = loop;
        this.send = send;
    }

    public long revision() {
        return revision;
    }

    /** After {@link Stop#COMPACTED}: the oldest revision the store still holds. */
    public long oldestRetained() {
        return oldestRetained;
    }

    /** Reads the next stretch and sends what matched, stopping early (and resuming there) when the client is full. */
    public Stop sendStretch() {
        Scan stretch;
        try {
            Selection selection = spec.selection();
            stretch = store.scan(spec.range(), revision, after, config.batchSize(),
                    object -> selection.matches(object.tree()));
        } catch (StoreException.Compacted e) {
            oldestRetained = e.oldest();
            return Stop.COMPACTED;
        }
        List<StoredObject> matches = stretch.matches();
        int sent = 0;
        long bytes = 0;
        try {
            for (int i = 0; i < matches.size(); i++) {
                StoredObject object = matches.get(i);
                Buffer frame = frameOf.apply(spec.rendering().bytesOf(object));
                send.accept(frame);
                sent++;
                bytes += frame.length();
                boolean lastOfAll = stretch.isDone() && i == matches.size() - 1;
                if (!lastOfAll && sink.writeQueueFull()) {
                    after = object.key();
                    return Stop.CLIENT_FULL;
                }
                if (!lastOfAll && bytes >= config.batchBytes()) {
                    after = object.key();
                    return Stop.STRETCH_READ;
                }
            }
        } finally {
            loop.eventsSent(sent); // counted once a stretch
        }
        if (!stretch.isDone()) {
            after = stretch.lastExamined();
            return Stop.STRETCH_READ;
        }
        return Stop.ALL_SENT;
    }
}
