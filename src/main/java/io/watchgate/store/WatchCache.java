package io.watchgate.store;

import io.watchgate.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The committed state of a store whose writes are ordered elsewhere (etcd), fed its events in revision order:
 * kube-apiserver's watch cache, with the same MVCC index, history, listeners and waiters as the embedded store, so
 * that lists at any retained revision, watches and the fan-out read it exactly as they read that one.
 *
 * <p>One feeder installs; readers take no lock. Revisions only increase and need not be dense: the store's own keys
 * see only some of etcd's revisions, and {@link #advanceTo} publishes the ones that changed nothing here.
 */
public final class WatchCache implements HistoryCompaction {

    private final ReentrantLock lock = new ReentrantLock();
    private final MvccIndex index;
    private final CommitListeners listeners = new CommitListeners();
    private final RevisionWaiters waiters;
    private final Compaction compaction;
    private final Installer installer;

    /**
     * @param maxRevisions    at most this many events of history are kept
     * @param maxHistoryBytes and at most about this many bytes of their objects (the newest is always kept)
     * @param budget          the server's memory account, which history counts into
     */
    public WatchCache(int maxRevisions, long maxHistoryBytes, MemoryBudget budget) {
        if (maxRevisions < 1 || maxHistoryBytes < 1) {
            throw new IllegalArgumentException("history bounds must be positive");
        }
        this.index = new MvccIndex(maxRevisions, budget);
        this.waiters = new RevisionWaiters(index::revision);
        this.compaction = new Compaction(lock, index, maxHistoryBytes);
        this.installer = new Installer(compaction, index, listeners, waiters);
    }

    /** Fills the empty cache with the objects live at {@code revision}, with no history before it. */
    public void restore(long revision, Iterable<StoredObject> state) {
        lock.lock();
        try {
            index.restore(revision, state);
            waiters.release(revision);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Replaces the whole state with {@code state}, read anew at {@code revision} (above the published one): what a
     * cache does when etcd compacted the revisions it had yet to read. No history reaches across the gap, so every
     * older revision reads as compacted; the listeners are told what changed ({@link CommitListener#replaced}).
     *
     * @param nowMillis what the changes are stamped as committed at
     */
    public void replace(long revision, List<StoredObject> state, long nowMillis) {
        lock.lock();
        try {
            Map<ObjectKey, StoredObject> before = new HashMap<>();
            for (StoredObject object : index.objectsAt(index.revision())) {
                before.put(object.key(), object);
            }
            index.replace(revision, state);
            List<ChangeEvent> changes = new ArrayList<>();
            for (StoredObject object : state) {
                StoredObject old = before.remove(object.key());
                if (old == null || old.revision() != object.revision()) {
                    changes.add(new ChangeEvent(revision, old == null ? EventType.ADDED : EventType.MODIFIED, object,
                            old, nowMillis));
                }
            }
            for (StoredObject gone : before.values()) {
                // the last state as it was: no delete revision is known, only that it is gone by this one
                changes.add(new ChangeEvent(revision, EventType.DELETED, gone, gone, nowMillis));
            }
            // as a commit: the listeners before the waiters, who may read at once what they waited for
            listeners.replaced(revision, changes);
            waiters.release(revision);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Installs {@code event} and tells the listeners and waiters, as a commit of the embedded store does.
     *
     * @throws IllegalArgumentException when its revision is not above the published one
     */
    public void install(ChangeEvent event) {
        lock.lock();
        try {
            if (event.revision() <= index.revision()) {
                throw new IllegalArgumentException("revision " + event.revision() + " does not follow "
                        + index.revision());
            }
            installer.install(event);
        } finally {
            lock.unlock();
        }
    }

    /** Publishes {@code revision}, up to which nothing more changed here; an older one changes nothing. */
    public void advanceTo(long revision) {
        lock.lock();
        try {
            index.advanceTo(revision);
            waiters.release(index.revision());
        } finally {
            lock.unlock();
        }
    }

    public long revision() {
        return index.revision();
    }

    public long oldest() {
        return index.oldest();
    }

    /** The newest installed value of {@code key}, or null when absent or deleted. */
    public StoredObject newest(ObjectKey key) {
        return index.newest(key);
    }

    public StoredObject get(ObjectKey key, long revision) {
        return index.get(key, revision);
    }

    public Page list(KeyRange range, long revision, ObjectKey startAfter, int limit, Predicate<StoredObject> filter,
            boolean countRemaining) {
        return index.list(range, revision, startAfter, limit, filter, countRemaining);
    }

    public Scan scan(KeyRange range, long revision, ObjectKey startAfter, int maxExamined,
            Predicate<StoredObject> filter) {
        return index.scan(range, revision, startAfter, maxExamined, filter);
    }

    public List<ChangeEvent> eventsAfter(long revision, int limit) {
        return index.eventsAfter(revision, limit);
    }

    /** The retained event at exactly {@code revision}, or null when there is none (or no longer). */
    public ChangeEvent eventAt(long revision) {
        try {
            List<ChangeEvent> events = index.eventsAfter(revision - 1, 1);
            return events.isEmpty() || events.get(0).revision() != revision ? null : events.get(0);
        } catch (StoreException.Compacted | StoreException.FutureRevision e) {
            return null;
        }
    }

    public CompletableFuture<Long> awaitRevision(long revision) {
        return waiters.await(revision);
    }

    public CommitListener.Registration addCommitListener(CommitListener listener) {
        return listeners.add(listener);
    }

    public ObjectCounts objectCounts() {
        return index.counts();
    }

    @Override
    public void compactTo(long target, int batch) {
        compaction.compactTo(target, batch);
    }

    @Override
    public long newestRevisionCommittedBy(long cutoffMillis) {
        return compaction.newestRevisionCommittedBy(cutoffMillis);
    }
}
