package io.watchgate.store;

/**
 * Dropping retained history by age: what the background {@link Compactor} asks of a store that keeps its own
 * history (a store whose history lives elsewhere, as etcd's does, need not offer it).
 */
public interface HistoryCompaction {

    /**
     * Makes {@code target} the oldest readable revision (clamped to the current one), in batches of at most
     * {@code batch} revisions so that writers never wait long for one.
     */
    void compactTo(long target, int batch);

    /** The newest revision committed at or before {@code cutoffMillis}, or the oldest one if none was. */
    long newestRevisionCommittedBy(long cutoffMillis);
}
