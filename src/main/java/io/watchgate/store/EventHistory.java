package io.watchgate.store;

import io.watchgate.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.List;

/**
 * The retained events, one per revision, in a fixed ring: revisions are dense, so revision r lives in slot
 * {@code r % capacity}. Readers go without locks and detect an overwritten slot by its revision; only the
 * committer appends and advances {@link #oldest}.
 */
final class EventHistory {
    private final ChangeEvent[] ring;
    /** What each slot's object was counted at ({@link ObjectSize}), to release exactly that. */
    private final long[] counted;
    /** Events with revision in (oldest, newest] are retained; the state at {@code oldest} is readable. */
    private volatile long oldest;
    private volatile long newest;
    /**
     * Bytes the retained events' objects take, serialized and as trees ({@link ObjectSize}): what the byte bound
     * of history limits. Committer-only.
     */
    private long retainedBytes;
    /** The server's memory account, which the retained bytes count into as well. */
    private final MemoryBudget budget;

    EventHistory(int capacity, MemoryBudget budget) {
        this.ring = new ChangeEvent[capacity];
        this.counted = new long[capacity];
        this.budget = budget;
    }

    /** Recovery: an empty history whose oldest readable state is {@code revision}. */
    void startAt(long revision) {
        oldest = revision;
        newest = revision;
    }

    long oldest() {
        return oldest;
    }

    long newest() {
        return newest;
    }

    boolean isFull() {
        return newest - oldest >= ring.length;
    }

    void append(ChangeEvent event) {
        int slot = slot(event.revision());
        ring[slot] = event;
        long bytes = ObjectSize.inMemory(event.object());
        counted[slot] = bytes;
        retainedBytes += bytes;
        budget.charge(MemoryBudget.Use.HISTORY, bytes);
        newest = event.revision();
    }

    long retainedBytes() {
        return retainedBytes;
    }

    /** The retained event at {@code revision}, or null once it has been dropped. */
    ChangeEvent at(long revision) {
        ChangeEvent event = ring[slot(revision)];
        return event != null && event.revision() == revision ? event : null;
    }

    /**
     * Makes {@code revision} the oldest readable one. The dropped events stay in their slots until
     * {@link #release} so that the committer can still see which keys they touched.
     */
    void dropThrough(long revision) {
        oldest = revision;
    }

    /** Frees the slots of revisions in ({@code from}, {@code through}], already dropped. */
    void release(long from, long through) {
        long released = 0;
        for (long r = from + 1; r <= through; r++) {
            int slot = slot(r);
            released += counted[slot];
            ring[slot] = null;
            counted[slot] = 0;
        }
        retainedBytes -= released;
        budget.release(MemoryBudget.Use.HISTORY, released);
    }

    /** Up to {@code limit} retained events after {@code revision}, in order. */
    List<ChangeEvent> after(long revision, int limit) {
        long from = revision + 1;
        long to = Math.min(newest, revision + limit);
        List<ChangeEvent> events = new ArrayList<>((int) Math.max(0, Math.min(to - revision, 4096)));
        for (long r = from; r <= to; r++) {
            ChangeEvent event = at(r);
            if (event == null || revision < oldest) {
                throw new StoreException.Compacted(revision, oldest);
            }
            events.add(event);
        }
        return events;
    }

    private int slot(long revision) {
        return (int) (revision % ring.length);
    }
}
