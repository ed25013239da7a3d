package io.watchgate.store;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * A revisioned key-value store of Kubernetes objects. One global revision counts every committed mutation;
 * reads see consistent snapshots at any retained revision, never blocking writers nor blocked by them.
 */
public interface Store {

    /** The revision of the newest committed mutation (0 before the first). */
    long currentRevision();

    /** The oldest revision that can still be read or watched from. */
    long oldestRevision();

    /**
     * Commits one mutation at the next revision, stamping {@code metadata.resourceVersion}, without waiting for it
     * to count: no thread waits for a write, in any mode. The precondition and guards are checked before this
     * returns, against every write submitted before to the embedded store, so a writer that retries on a conflict
     * never waits. The future completes once the write is visible to readers and watchers (at once in memory mode,
     * after the log's sync in durable mode), or fails with {@link StoreException.Unavailable} when it never will be;
     * it may complete on another thread.
     *
     * <p>In etcd mode the check before this returns is against this replica's cache, and etcd checks again: a write
     * the cache does not hold yet (another replica's, or this one's still on its way) that conflicts fails the
     * future with the same refusals as below. The future completes once etcd took the write and this replica's
     * cache holds it, or after {@code watchgate.storage.etcd.request-timeout} all the same; it fails with
     * {@link StoreException.Uncertain} when etcd did not answer in time (the write may have been made).
     *
     * @throws StoreException.KeyExists, KeyNotFound, RevisionConflict or GuardChanged when the precondition or a
     *         guard fails, Unavailable when the store takes no writes, and Overloaded when the server's memory
     *         budget is exceeded for now
     */
    CompletableFuture<ChangeEvent> submit(Mutation mutation);

    /**
     * The newest state of {@code key}, or null: counting writes submitted and not yet counted, which is what the
     * next write's precondition is checked against. Writers compute from it, so that a write behind one waiting for
     * the disk does not conflict with it over and over; readers use {@link #get}, which shows only what counts.
     */
    StoredObject latest(ObjectKey key);

    /**
     * Completes once {@code object}, taken from {@link #latest}, counts: at once when it does already, and
     * exceptionally with {@link StoreException.Unavailable} when the write that made it was refused. What a write
     * that changes nothing answers with, so that it never shows a state that may yet be lost.
     */
    CompletableFuture<StoredObject> counted(StoredObject object);

    /**
     * The object at {@code key} as of {@code revision}, or null if it did not exist then.
     *
     * @throws StoreException.Compacted or FutureRevision when that revision cannot be read
     */
    StoredObject get(ObjectKey key, long revision);

    /**
     * Up to {@code limit} objects of {@code range} that match {@code filter}, as of {@code revision}, in key
     * order, starting after {@code startAfter} (null for the beginning).
     *
     * @param countRemaining whether to count every match after the page (a scan to the end of the range),
     *                       rather than only tell whether there is one
     */
    Page list(KeyRange range, long revision, ObjectKey startAfter, int limit, Predicate<StoredObject> filter,
            boolean countRemaining);

    /**
     * Reads the next stretch of a snapshot: examines at most {@code maxExamined} keys of {@code range} after
     * {@code startAfter} (null for the beginning) and returns those that match {@code filter}. Bounded work per
     * call, however selective the filter: what a watch's initial events read between other work.
     */
    Scan scan(KeyRange range, long revision, ObjectKey startAfter, int maxExamined, Predicate<StoredObject> filter);

    /** The committed events with revision greater than {@code revision}, in order. */
    List<ChangeEvent> eventsAfter(long revision);

    /**
     * At most {@code limit} of the committed events with revision greater than {@code revision}, in order: what a
     * watcher catching up reads, a batch at a time.
     *
     * @throws StoreException.Compacted when events after {@code revision} are no longer retained
     */
    List<ChangeEvent> eventsAfter(long revision, int limit);

    /**
     * The revision a read of the most recent state reads at: one at which the store holds every write committed
     * before this call. The current revision at once for a store that orders its own writes; for a cache of etcd,
     * etcd's current revision once the cache holds it (kube-apiserver's consistent reads from cache; the caller
     * bounds the wait), or the cache's own while etcd does not answer or does not tell its revision within 2 s.
     */
    CompletableFuture<Long> consistentRevision();

    /**
     * Completes once the store has reached {@code revision}. A caller that stops waiting cancels the future,
     * which releases what the wait holds.
     */
    CompletableFuture<Long> awaitRevision(long revision);

    /**
     * Tells {@code listener} of every commit from now on, until the returned registration is closed. A listener
     * that lives as long as the store may ignore it; any other (a test's) must close it.
     */
    CommitListener.Registration addCommitListener(CommitListener listener);

    /** What the store counts, for metrics and health. */
    StoreStatistics statistics();
}
