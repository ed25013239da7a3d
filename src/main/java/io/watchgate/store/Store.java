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
     * Commits one mutation at the next revision, stamping {@code metadata.resourceVersion}.
     *
     * @throws StoreException.KeyExists, KeyNotFound or RevisionConflict when the precondition fails
     */
    ChangeEvent commit(Mutation mutation);

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
     * Completes once the store has reached {@code revision}. A caller that stops waiting cancels the future,
     * which releases what the wait holds.
     */
    CompletableFuture<Long> awaitRevision(long revision);

    void addCommitListener(CommitListener listener);
}
