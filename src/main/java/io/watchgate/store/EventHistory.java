package io.watchgate.store;

import io.watchgate.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The retained events in revision order, in a fixed ring addressed by sequence: the n-th event appended lives in
 * slot {@code n % capacity}. Revisions only increase; they need not be dense (a store fed by etcd sees only its
 * own keys' revisions), so a reader finds a revision by binary search. Readers go without locks; only the
 * committer appends and drops.
 *
 * <p>A slot is reused only after its event was dropped and {@link #first} moved past it, and the committer writes
 * {@code first} before it reuses the slot: a reader that reads a slot, then finds {@code first} still at or below
 * that slot's sequence, has read the right event.
 */
final class EventHistory {
    private final AtomicReferenceArray<ChangeEvent> ring;
    /** What each slot's object was counted at ({@link ObjectSize}), to release exactly that. Committer-only. */
    private final long[] counted;
    /** Events with revision above {@code oldest} are retained; the state at {@code oldest} is readable. */
    private volatile long oldest;
    private volatile long newest;
    /** The sequence of the oldest retained event, and of the next to append. */
    private volatile long first;
    private volatile long next;
    /**
     * Bytes the retained events' objects take, serialized and as trees ({@link ObjectSize}): what the byte bound
     * of history limits. Committer-only.
     */
    private long retainedBytes;
    /** The server's memory account, which the retained bytes count into as well. */
    private final MemoryBudget budget;

    EventHistory(int capacity, MemoryBudget budget) {
        this.ring = new AtomicReferenceArray<>(capacity);
        this.counted = new long[capacity];
        this.budget = budget;
    }

    /** An empty history whose oldest readable state is {@code revision}. Committer-only. */
    void startAt(long revision) {
        release(next);
        oldest = revision;
        newest = revision;
    }

    long oldest() {
        return oldest;
    }

    /** The revision of the newest event, or the revision history started at when it has none. */
    long newest() {
        return newest;
    }

    boolean isFull() {
        return next - first >= ring.length();
    }

    boolean isEmpty() {
        return next == first;
    }

    void append(ChangeEvent event) {
        long sequence = next;
        int slot = slot(sequence);
        long bytes = ObjectSize.inMemory(event.object());
        counted[slot] = bytes;
        retainedBytes += bytes;
        budget.charge(MemoryBudget.Use.HISTORY, bytes);
        ring.set(slot, event);
        newest = event.revision();
        next = sequence + 1;
    }

    long retainedBytes() {
        return retainedBytes;
    }

    /** Committer-only: the sequence of the oldest retained event, and of the next. */
    long firstSequence() {
        return first;
    }

    long nextSequence() {
        return next;
    }

    /** Committer-only: the retained event at {@code sequence}. */
    ChangeEvent bySequence(long sequence) {
        return ring.get(slot(sequence));
    }

    /**
     * Makes {@code revision} the oldest readable one. The dropped events stay in their slots until
     * {@link #release} so that the committer can still see which keys they touched.
     */
    void dropThrough(long revision) {
        oldest = revision;
    }

    /** Frees the slots of the events before sequence {@code until}, already dropped. */
    void release(long until) {
        long released = 0;
        for (long sequence = first; sequence < until; sequence++) {
            int slot = slot(sequence);
            released += counted[slot];
            counted[slot] = 0;
            ring.set(slot, null);
        }
        first = Math.max(first, until);
        retainedBytes -= released;
        budget.release(MemoryBudget.Use.HISTORY, released);
    }

    /**
     * Up to {@code limit} retained events after {@code revision}, in order.
     *
     * @throws StoreException.Compacted when events after {@code revision} were dropped (before or during the read)
     */
    List<ChangeEvent> after(long revision, int limit) {
        long from = firstAfter(revision);
        long to = Math.min(next, from + Math.max(0, limit));
        List<ChangeEvent> events = new ArrayList<>((int) Math.min(to - from, 4096));
        for (long sequence = from; sequence < to; sequence++) {
            ChangeEvent event = read(sequence);
            if (event == null) {
                throw new StoreException.Compacted(revision, oldest);
            }
            events.add(event);
        }
        if (revision < oldest) {
            throw new StoreException.Compacted(revision, oldest);
        }
        return events;
    }

    /**
     * The newest revision whose event was committed at or before {@code cutoffMillis}, or {@link #oldest()} when
     * none was: how far history older than an age reaches.
     */
    long newestCommittedBy(long cutoffMillis) {
        long candidate = oldest;
        for (long sequence = first; sequence < next; sequence++) {
            ChangeEvent event = read(sequence);
            if (event == null) {
                candidate = oldest; // compacted meanwhile: what is left starts later
                sequence = first - 1;
                continue;
            }
            if (event.committedAtMillis() > cutoffMillis) {
                break;
            }
            candidate = event.revision();
        }
        return candidate;
    }

    /** The sequence of the first retained event with a revision above {@code revision}, by binary search. */
    private long firstAfter(long revision) {
        while (true) {
            if (revision < oldest) {
                throw new StoreException.Compacted(revision, oldest);
            }
            long low = first;
            long high = next;
            boolean raced = false;
            while (low < high && !raced) {
                long middle = (low + high) >>> 1;
                ChangeEvent event = read(middle);
                if (event == null) {
                    raced = true; // dropped under us: search again in what is left
                } else if (event.revision() <= revision) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            if (!raced) {
                return low;
            }
        }
    }

    /** The event at {@code sequence}, or null when it was dropped (or its slot already reused). */
    private ChangeEvent read(long sequence) {
        ChangeEvent event = ring.get(slot(sequence));
        return sequence < first ? null : event;
    }

    private int slot(long sequence) {
        return (int) (sequence % ring.length());
    }
}
