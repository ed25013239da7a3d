package io.watchgate.store;

import io.watchgate.memory.MemoryBudget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Durable mode: the writes handed to the {@link CommitLog} and not yet durable. A commit is prepared under the
 * commit lock and handed to the log instead of installed; the log's {@link LogSink} installs batches once they are
 * on disk, in revision order, and only then completes their writers' futures. Until then a write is invisible to
 * readers and watchers, but the next writer's precondition sees it ({@link #newest}).
 *
 * <p>Everything here but the counters is the commit lock's; without a log, nothing is ever in flight.
 */
public final class InFlightWrites {

    /**
     * Writes waiting for the log's sync, at most. A submitted write holds no thread while it waits, so this bound
     * and the next are what limit the memory a stalled disk can tie up; past either, writes answer 503 until it
     * catches up.
     */
    public static final int MAX_WRITES = 10_000;
    /** And at most this many bytes of them (as serialized): objects may be up to some MiB each. */
    public static final long MAX_BYTES = 64L << 20;

    /** A write handed to the log, and the promise its writer waits on. */
    record Write(ChangeEvent event, CompletableFuture<ChangeEvent> durable, long submittedNanos) {
    }

    private final MvccIndex index;
    /** The server's memory account: the bytes in flight count into it as well. */
    private final MemoryBudget budget;
    /** Durable mode only (else null). */
    private volatile CommitLog log;
    /** The last revision handed to a commit; ahead of the index's while the log has writes in flight. */
    private long assigned;
    /**
     * Per key, the newest write on its way to the log: what the next writer's preconditions see. Written under the
     * commit lock, read without it ({@link #newest}): a write is installed in the index before it leaves this map.
     */
    private final Map<ObjectKey, ChangeEvent> unapplied = new ConcurrentHashMap<>();
    private final ArrayDeque<Write> writes = new ArrayDeque<>();
    /** The serialized bytes of {@link #writes}. */
    private long bytes;
    private final LongAdder durableWrites = new LongAdder();
    private final LongAdder durableWaitNanos = new LongAdder();

    InFlightWrites(MvccIndex index, MemoryBudget budget) {
        this.index = index;
        this.budget = budget;
    }

    /** The log commits go to, or null in memory mode. */
    CommitLog log() {
        return log;
    }

    /** From now on commits go to {@code log}. Commit lock held; once, before the first commit. */
    void use(CommitLog log) {
        this.log = log;
        this.assigned = index.revision();
    }

    /**
     * The newest value of {@code key}: a write the log has not confirmed yet counts for the next writer. Without
     * the commit lock it may miss a write being handed to the log at that moment, as if read just before it; a
     * write landing is never missed, since it is in the index before it leaves {@link #unapplied}.
     */
    StoredObject newest(ObjectKey key) {
        ChangeEvent pending = unapplied.get(key);
        if (pending != null) {
            return pending.type() == EventType.DELETED ? null : pending.object();
        }
        return index.newest(key);
    }

    /** The revision the next commit takes. Commit lock held. */
    long nextRevision() {
        return assigned + 1;
    }

    /** Refuses the next write while the bounds are reached. Commit lock held. */
    void checkRoom() {
        if (writes.size() >= MAX_WRITES || bytes >= MAX_BYTES) {
            throw new StoreException.Unavailable("too many writes are waiting for the disk (" + writes.size()
                    + ", " + bytes + " bytes)");
        }
    }

    /** Hands {@code event} to {@code log}; the future completes once it is durable and installed. Lock held. */
    CompletableFuture<ChangeEvent> hand(CommitLog log, ChangeEvent event) {
        // shared with the other writers of the same batch: one sync for all of them
        Write write = new Write(event, new CompletableFuture<>(), System.nanoTime());
        log.append(event);
        assigned = event.revision();
        unapplied.put(event.key(), event);
        writes.add(write);
        long size = serializedBytes(event);
        bytes += size;
        budget.charge(MemoryBudget.Use.WRITES, size);
        return write.durable();
    }

    /** Completes once {@code object} counts; see {@link Store#counted}. Commit lock held. */
    CompletableFuture<StoredObject> counted(StoredObject object) {
        for (Write write : writes) {
            if (write.event().object() == object) {
                return write.durable().thenApply(event -> object);
            }
        }
        if (object.revision() > index.revision()) {
            return CompletableFuture.failedFuture(new StoreException.Unavailable(
                    "the write of revision " + object.revision() + " could not be made durable"));
        }
        return CompletableFuture.completedFuture(object);
    }

    /** The oldest write in flight, which must be {@code event}: the log reports in order. Commit lock held. */
    Write oldest(ChangeEvent event) {
        Write write = writes.peek();
        if (write == null || write.event() != event) {
            throw new IllegalStateException("the log reported revision " + event.revision() + " out of order");
        }
        return write;
    }

    /** {@code write}, the oldest, is durable and installed: it leaves the writes in flight. Commit lock held. */
    void landed(Write write) {
        ChangeEvent event = write.event();
        writes.poll();
        durableWrites.increment();
        durableWaitNanos.add(System.nanoTime() - write.submittedNanos());
        unapplied.remove(event.key(), event);
        long size = serializedBytes(event);
        bytes -= size;
        budget.release(MemoryBudget.Use.WRITES, size);
    }

    /** Every write in flight is lost: drops them all, and returns them to be refused. Commit lock held. */
    List<Write> abandonAll() {
        log.discardQueued();
        List<Write> lost = new ArrayList<>(writes);
        writes.clear();
        unapplied.clear();
        budget.release(MemoryBudget.Use.WRITES, bytes);
        bytes = 0;
        assigned = index.revision();
        return lost;
    }

    /** Writes that became durable so far. */
    long durableWrites() {
        return durableWrites.sum();
    }

    /** The time those writes waited, from submit until durable, in nanoseconds. */
    long durableWaitNanos() {
        return durableWaitNanos.sum();
    }

    private static long serializedBytes(ChangeEvent event) {
        byte[] json = event.object().json();
        return json == null ? 0 : json.length;
    }
}
