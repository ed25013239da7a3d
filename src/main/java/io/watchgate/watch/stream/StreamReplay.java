package io.watchgate.watch.stream;

import io.vertx.core.buffer.Buffer;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.watch.EncodedEvents;
import io.watchgate.watch.WatchConfig;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.WatchSink;
import java.util.List;
import java.util.function.Consumer;

/**
 * A stream catching up from the store's history, which holds every resource's events in one order: a batch of events
 * after its position, each sent to whichever of its watches it concerns, so that the stream stays in revision order
 * across all of them. As a single watch's history replay, it stops at a full client and after
 * {@link WatchConfig#batchBytes()}; and it stops at a limit, where the stream's snapshots are due. Loop thread only.
 */
final class StreamReplay {

    /** Why a batch stopped. */
    enum Stop { CLIENT_FULL, BATCH_SENT, COMPACTED }

    private final StreamedWatches watches;
    private final StreamFrames format;
    private final Store store;
    private final EncodedEvents frames;
    private final WatchConfig config;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final Consumer<Buffer> send;
    private long handledThrough;
    private long oldestRetained;

    StreamReplay(StreamedWatches watches, StreamFrames format, Store store, EncodedEvents frames,
            WatchConfig config, WatchSink sink, WatchLoop loop, Consumer<Buffer> send) {
        this.watches = watches;
        this.format = format;
        this.store = store;
        this.frames = frames;
        this.config = config;
        this.sink = sink;
        this.loop = loop;
        this.send = send;
    }

    /**
     * Sends the next batch of events after {@code position} and up to {@code limit}; {@link #handledThrough()} is
     * then the revision through which every event was handled, sent or no watch's business.
     *
     * @param ids whether events carry their revision as an id (not while a snapshot is still to come)
     */
    Stop sendBatch(long position, long limit, boolean ids) {
        handledThrough = position;
        long published = store.currentRevision(); // every event up to it is installed: see HistoryReplay
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
                if (event.revision() > limit) {
                    handledThrough = limit; // every event up to the limit was handled: none lies between
                    return Stop.BATCH_SENT;
                }
                handledThrough = event.revision();
                StreamFrames.Delivery delivery = format.of(frames.of(event), watches, ids);
                if (delivery != null) {
                    for (Buffer frame : delivery.frames()) {
                        send.accept(frame);
                        bytes += frame.length();
                    }
                    sent += delivery.events();
                    if (sink.writeQueueFull()) {
                        return Stop.CLIENT_FULL;
                    }
                    if (bytes >= config.batchBytes()) {
                        return Stop.BATCH_SENT;
                    }
                }
            }
        } finally {
            loop.eventsSent(sent);
        }
        if (events.size() < config.batchSize()) {
            handledThrough = Math.max(handledThrough, Math.min(published, limit));
        }
        return Stop.BATCH_SENT;
    }

    long handledThrough() {
        return handledThrough;
    }

    long oldestRetained() {
        return oldestRetained;
    }
}
