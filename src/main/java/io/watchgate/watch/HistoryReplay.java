package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import java.util.List;
import java.util.function.Consumer;

/**
 * A subscriber catching up from the store's history, which every subscriber shares (etcd's unsynced watchers, synced
 * a batch at a time): the events after a revision, {@link WatchConfig#batchSize()} at a time, each sent when it is
 * the business of one of its watches, stopping at the one that fills the client's buffers, and at a limit (where a
 * stream's snapshots are due). The history holds every resource's events in one order: a stream of many watches
 * replays it once, in revision order across all of them. Whether to go on, go live or stall is its subscriber's call.
 * Loop thread only, as its subscriber.
 */
public final class HistoryReplay {

    /** What its client is sent for an event: a single watch's frame, a stream's frame for each watch it concerns. */
    @FunctionalInterface
    public interface Framing {
        /**
         * Sends the event's frames through {@code send}, if any.
         *
         * @return how many events they are (the loop counts them), 0 for an event none of its watches' business
         */
        int send(EncodedEvent event, Consumer<Buffer> send);
    }

    /** Why a batch stopped. */
    public enum Stop {
        /** The client's buffers are full: the watcher stalls. */
        CLIENT_FULL,
        /** The batch was handled, or as much of it as one turn of the loop may send ({@code batchBytes}). */
        BATCH_SENT,
        /** The store no longer holds the revision asked for: see {@link #oldestRetained()}. */
        COMPACTED
    }

    private final Framing framing;
    private final Store store;
    private final EncodedEvents frames;
    private final WatchConfig config;
    private final WatchSink sink;
    private final WatchLoop loop;
    /** The subscriber's own writing, which notes each frame for its {@link Stall}. */
    private final Consumer<Buffer> send;
    private final Consumer<Buffer> counted = this::sendCounted;
    private long handledThrough;
    private long oldestRetained;
    private long batchBytes;

    public HistoryReplay(Framing framing, Store store, EncodedEvents frames, WatchConfig config, WatchSink sink,
            WatchLoop loop, Consumer<Buffer> send) {
        this.framing = framing;
        this.store = store;
        this.frames = frames;
        this.config = config;
        this.sink = sink;
        this.loop = loop;
        this.send = send;
    }

    /**
     * Sends the next batch of events after {@code position} and up to {@code limit}; {@link #handledThrough()} is
     * then the revision through which every event was handled, sent or no watch's business (even when sending one
     * threw).
     */
    public Stop sendBatch(long position, long limit) {
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
        batchBytes = 0;
        try {
            for (ChangeEvent event : events) {
                if (event.revision() > limit) {
                    handledThrough = limit; // every event up to the limit was handled: none lies between
                    return Stop.BATCH_SENT;
                }
                handledThrough = event.revision();
                int delivered = framing.send(frames.of(event), counted);
                if (delivered > 0) {
                    sent += delivered;
                    if (sink.writeQueueFull()) {
                        return Stop.CLIENT_FULL;
                    }
                    if (batchBytes >= config.batchBytes()) {
                        return Stop.BATCH_SENT; // the rest of the batch after handledThrough, on the loop's next turn
                    }
                }
            }
        } finally {
            loop.eventsSent(sent); // counted once a batch
        }
        if (events.size() < config.batchSize()) {
            handledThrough = Math.max(handledThrough, Math.min(published, limit));
        }
        return Stop.BATCH_SENT;
    }

    private void sendCounted(Buffer frame) {
        send.accept(frame);
        batchBytes += frame.length();
    }

    public long handledThrough() {
        return handledThrough;
    }

    /** After {@link Stop#COMPACTED}: the oldest revision the store still holds. */
    public long oldestRetained() {
        return oldestRetained;
    }
}
