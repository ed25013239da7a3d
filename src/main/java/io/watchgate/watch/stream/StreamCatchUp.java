package io.watchgate.watch.stream;

import io.watchgate.store.Store;
import io.watchgate.watch.HistoryReplay;

/**
 * How a stream that is not live gets up to date, a step a turn: from history ({@link HistoryReplay}) up to the
 * revision of the snapshots due, the snapshots ({@link StreamSnapshots}), then history again up to the store's
 * head. No event carries an id while snapshots are due. Each step says why it stopped; what happens between steps
 * (yield, wait for a drain, go live) is its stream's call. Loop thread only, as its stream.
 */
final class StreamCatchUp {

    /** Why a step stopped. */
    enum Step {
        /** The client's buffers are full. */
        CLIENT_FULL,
        /** It did a turn's work: the next step on a later turn. */
        YIELD,
        /** The store no longer holds the revision needed: see {@link #oldestRetained()}. */
        COMPACTED,
        /** Nothing is left to send: the stream may go live. */
        CAUGHT_UP
    }

    private final HistoryReplay history;
    private final StreamSnapshots snapshots;
    private final Store store;
    private long position;
    private long oldestRetained;

    StreamCatchUp(HistoryReplay history, StreamSnapshots snapshots, Store store) {
        this.history = history;
        this.snapshots = snapshots;
        this.store = store;
    }

    /** The next step from {@code from}; {@link #position()} is then the revision through which all is handled. */
    Step step(long from) {
        position = from;
        if (snapshots.isDue() && position >= snapshots.revision()) {
            return switch (snapshots.sendStretch()) {
                case CLIENT_FULL -> Step.CLIENT_FULL;
                case STRETCH_READ, ALL_SENT -> Step.YIELD;
                case COMPACTED -> {
                    oldestRetained = snapshots.oldestRetained();
                    yield Step.COMPACTED;
                }
            };
        }
        long head = store.currentRevision();
        if (position >= head && !snapshots.isDue()) {
            return Step.CAUGHT_UP;
        }
        HistoryReplay.Stop stop;
        try {
            // no ids while a snapshot is due (see StreamFrames.replaying)
            stop = history.sendBatch(position, snapshots.isDue() ? snapshots.revision() : Long.MAX_VALUE);
        } finally {
            position = history.handledThrough(); // through every event handled, even when sending one threw
        }
        return switch (stop) {
            case CLIENT_FULL -> Step.CLIENT_FULL;
            case COMPACTED -> {
                oldestRetained = history.oldestRetained();
                yield Step.COMPACTED;
            }
            case BATCH_SENT -> position >= head && !snapshots.isDue() ? Step.CAUGHT_UP : Step.YIELD;
        };
    }

    long position() {
        return position;
    }

    long oldestRetained() {
        return oldestRetained;
    }
}
