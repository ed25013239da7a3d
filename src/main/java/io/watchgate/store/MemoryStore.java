package io.watchgate.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.memory.MemoryBudget;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The embedded store: an MVCC index from key to version chain with a ring of recent events ({@link MvccIndex}),
 * and one commit lock.
 *
 * <p>Writers serialize on the commit lock, which covers only the precondition check, stamping, one
 * serialization ({@link CommitPreparation}) and the in-memory install ({@link Installer}). A commit installs its
 * version before it publishes its revision, so a reader that starts at the published revision sees a complete
 * snapshot. Readers take no lock; a read that overlaps a compaction ({@link Compaction}) of its own revision
 * notices and reports it as compacted.
 *
 * <p>With a {@link CommitLog} (durable mode) a commit is prepared under the lock and handed to the log instead
 * of installed ({@link InFlightWrites}); the log installs batches once they are on disk, in revision order, through
 * the {@link LogSink}, and only then completes their writers' futures. Until then the write is invisible to readers
 * and watchers, but the next writer's precondition sees it. Recovery and snapshots go through
 * {@link StateTransfer}; readers waiting for a revision through {@link RevisionWaiters}.
 */
public final class MemoryStore implements Store, StoreStatistics, HistoryCompaction, LogBackedStore {

    private final ReentrantLock commitLock = new ReentrantLock();
    private final MvccIndex index;
    private final InFlightWrites inFlight;
    private final CommitPreparation preparation;
    private final CommitListeners listeners = new CommitListeners();
    private final RevisionWaiters waiters;
    private final Compaction compaction;
    private final Installer installer;
    private final LogSink logSink;
    private final StateTransfer transfer;
    private final MemoryBudget budget;

    /**
     * The history bound to use within {@code budget}: history counts into it at what its objects take
     * ({@link ObjectSize}), and a refused write cannot compact it: so that history alone never holds the budget
     * full, it may fill at most half of it.
     */
    public static long historyBytesWithin(long maxHistoryBytes, MemoryBudget budget) {
        return Math.min(maxHistoryBytes, budget.limit() / 2);
    }

    /** A store that answers to no memory budget but its history's bounds (tests, tools). */
    public MemoryStore(ObjectMapper mapper, int maxRevisions, long maxHistoryBytes, Clock clock) {
        this(mapper, maxRevisions, maxHistoryBytes, clock, MemoryBudget.unbounded());
    }

    /**
     * @param maxRevisions     at most this many revisions of history are kept
     * @param maxHistoryBytes  and at most about this many bytes of events' objects, serialized and as trees (the
     *                         newest is always kept)
     * @param budget           the server's memory account: history and writes in flight count into it, and
     *                         writes are refused while it is exceeded
     */
    public MemoryStore(ObjectMapper mapper, int maxRevisions, long maxHistoryBytes, Clock clock,
            MemoryBudget budget) {
        if (maxRevisions < 1 || maxHistoryBytes < 1) {
            throw new IllegalArgumentException("history bounds must be positive");
        }
        this.budget = budget;
        this.index = new MvccIndex(maxRevisions, budget);
        this.inFlight = new InFlightWrites(index, budget);
        this.preparation = new CommitPreparation(mapper, clock, inFlight);
        this.waiters = new RevisionWaiters(index::revision);
        this.compaction = new Compaction(commitLock, index, maxHistoryBytes);
        this.installer = new Installer(compaction, index, listeners, waiters);
        this.logSink = new LogSink(commitLock, inFlight, installer);
        this.transfer = new StateTransfer(commitLock, index, inFlight, installer);
    }

    @Override
    public long currentRevision() {
        return index.revision();
    }

    /** Every write submitted to it is in its revision order: what it has published is the most recent state. */
    @Override
    public CompletableFuture<Long> consistentRevision() {
        return CompletableFuture.completedFuture(index.revision());
    }

    @Override
    public long oldestRevision() {
        return index.oldest();
    }

    @Override
    public CompletableFuture<ChangeEvent> submit(Mutation mutation) {
        if (!budget.admitsWrite()) {
            throw new StoreException.Overloaded("the server is short of memory and takes no writes for now",
                    budget.retryAfterSeconds());
        }
        CommitLog log = inFlight.log();
        Prestamped prestamped = preparation.prestamp(mutation); // the costly part, before the lock
        commitLock.lock();
        try {
            if (log == null) {
                ChangeEvent event = preparation.prepare(mutation, index.revision() + 1, prestamped);
                installer.install(event);
                return CompletableFuture.completedFuture(event);
            }
            inFlight.checkRoom();
            return inFlight.hand(log, preparation.prepare(mutation, inFlight.nextRevision(), prestamped));
        } finally {
            commitLock.unlock();
        }
    }

    @Override
    public StoredObject latest(ObjectKey key) {
        // without the commit lock, which a large write holds while it is serialized: an event loop must not wait
        // for it, and a writer checks its precondition under the lock anyway
        return inFlight.newest(key);
    }

    @Override
    public CompletableFuture<StoredObject> counted(StoredObject object) {
        if (inFlight.log() == null) {
            return CompletableFuture.completedFuture(object);
        }
        commitLock.lock();
        try {
            return inFlight.counted(object);
        } finally {
            commitLock.unlock();
        }
    }

    @Override
    public StoredObject get(ObjectKey key, long revision) {
        return index.get(key, revision);
    }

    @Override
    public Page list(KeyRange range, long revision, ObjectKey startAfter, int limit,
            Predicate<StoredObject> filter, boolean countRemaining) {
        return index.list(range, revision, startAfter, limit, filter, countRemaining);
    }

    @Override
    public Scan scan(KeyRange range, long revision, ObjectKey startAfter, int maxExamined,
            Predicate<StoredObject> filter) {
        return index.scan(range, revision, startAfter, maxExamined, filter);
    }

    @Override
    public List<ChangeEvent> eventsAfter(long revision) {
        return index.eventsAfter(revision, Integer.MAX_VALUE);
    }

    @Override
    public List<ChangeEvent> eventsAfter(long revision, int limit) {
        return index.eventsAfter(revision, limit);
    }

    /** Completes once the store reaches {@code revision}; cancelling the returned future stops the wait. */
    @Override
    public CompletableFuture<Long> awaitRevision(long revision) {
        return waiters.await(revision);
    }

    int waiting() {
        return waiters.waiting();
    }

    @Override
    public CommitListener.Registration addCommitListener(CommitListener listener) {
        return listeners.add(listener);
    }

    int listening() {
        return listeners.size();
    }

    @Override
    public StoreStatistics statistics() {
        return this;
    }

    @Override
    public ObjectCounts objectCounts() {
        return index.counts();
    }

    @Override
    public long durableWrites() {
        return inFlight.durableWrites();
    }

    @Override
    public long durableWaitNanos() {
        return inFlight.durableWaitNanos();
    }

    @Override
    public void compactTo(long target, int batch) {
        compaction.compactTo(target, batch);
    }

    @Override
    public long newestRevisionCommittedBy(long cutoffMillis) {
        return compaction.newestRevisionCommittedBy(cutoffMillis);
    }

    @Override
    public void restore(long revision, Iterable<StoredObject> state) {
        transfer.restore(revision, state);
    }

    @Override
    public void replay(long revision, EventType type, StoredObject object, long committedAtMillis) {
        transfer.replay(revision, type, object, committedAtMillis);
    }

    @Override
    public SnapshotView snapshotView() {
        return transfer.snapshotView();
    }

    @Override
    public CommitLog.Sink useLog(CommitLog log) {
        commitLock.lock();
        try {
            inFlight.use(log);
            return logSink;
        } finally {
            commitLock.unlock();
        }
    }
}
