package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import java.util.List;
import java.util.function.Consumer;

/**
 * A watcher catching up from the store's history, which every watcher shares (etcd's unsynced watchers, synced a
 * batch at a time): the events after a revision, {@link WatchConfig#batchSize()} at a time, each sent when it is
 * the watch's business, stopping at the one that fills the client's buffers. Whether to go on, go live or stall
 * is its watcher's call. Loop thread only, as its watcher.
 */
final class HistoryReplay {

    /** Why a batch stopped. */
    enum Stop {
        /** The client's buffers are full: the watcher stalls. */
        CLIENT_FULL,
        /** The batch was handled, or as much of it as one turn of the loop may send ({@code batchBytes}). */
        BATCH_SENT,
        /** The store no longer holds the revision asked for: see {@link #oldestRetained()}. */
        COMPACTED
    }

    private final WatchSpec spec;
    private final Store store;
    private final EncodedEvents frames;
    private final WatchConfig config;
    private final WatchSink sink;
    private final WatchLoop loop;
    /** The watcher's own writing, which notes each frame for its {@link Stall}. */
    private final Consumer<Buffer> send;
    private long handledThrough;
    private long oldestRetained;

    HistoryReplay(WatchSpec spec, Store store, EncodedEvents frames, WatchConfig config, WatchSink sink,
            WatchLoop loop, Consumer<Buffer> send) {
        this.spec = spec;
        this.store = store;
        this.frames = frames;
        this.config = config;
        this.sink = sink;
        this.loop = loop;
        this.send = send;
    }

    /**
     * Sends the next batch of events after {@code position}; {@link #handledThrough()} is then the revision of the
     * last event handled, sent or not its business (even when sending one threw).
     */
    Stop sendBatch(long position) {
        handledThrough = position;
        // every event up to the published revision is installed before it is published: a batch read after this
        // that ends short of the limit holds all of them, even where revisions between have no event here
        long published = store.currentRevision();
        List<ChangeEvent> events;
        try {
            events = store.eventsAfter(position, config.batchSize());
        } catch (StoreException.Compacted e) {
            oldestRetained = e.oldest();
            return Stop.COMPACTED;
        }
        int sent = 0;
        long bytes = 0;
        try {
            for (ChangeEvent event : events) {
                handledThrough = event.revision();
                Buffer frame = EventFilter.frameFor(frames.of(event), spec, sink.format());
                if (frame != null) {
                    send.accept(frame);
                    sent++;
                    bytes += frame.length();
                    if (sink.writeQueueFull()) {
                        return Stop.CLIENT_FULL;
                    }
                    if (bytes >= config.batchBytes()) {
                        return Stop.BATCH_SENT; // the rest of the batch after handledThrough, on the loop's next turn
                    }
                }
            }
        } finally {
            loop.eventsSent(sent); // counted once a batch
        }
        if (events.size() < config.batchSize()) {
            handledThrough = Math.max(handledThrough, published);
        }
        return Stop.BATCH_SENT;
    }

    long handledThrough() {
        return handledThrough;
    }

    /** After {@link Stop#COMPACTED}: the oldest revision the store still holds. */
    long oldestRetained() {
        return oldestRetained;
    }
}
