package io.watchgate.store;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Compaction of the index: by the history's bounds (revisions and bytes) as each commit installs, and by age on
 * request, a batch at a time under the commit lock.
 */
final class Compaction implements HistoryCompaction {

    private final ReentrantLock commitLock;
    private final MvccIndex index;
    private final EventHistory history;
    private final long maxHistoryBytes;

    Compaction(ReentrantLock commitLock, MvccIndex index, long maxHistoryBytes) {
        this.commitLock = commitLock;
        this.index = index;
        this.history = index.history();
        this.maxHistoryBytes = maxHistoryBytes;
    }

    /**
     * Before a commit installs: compacts the oldest revisions while the history is full, or over its byte bound
     * (but never the newest revision). Commit lock held.
     */
    void makeRoom() {
        if (history.isFull() || history.retainedBytes() > maxHistoryBytes) {
            while (history.isFull()
                    || (history.retainedBytes() > maxHistoryBytes && history.oldest() < index.revision())) {
                compactThrough(history.oldest() + 1);
            }
        }
    }

    @Override
    public void compactTo(long target, int batch) {
        while (true) {
            commitLock.lock();
            try {
                long goal = Math.min(Math.min(target, index.revision()), history.oldest() + batch);
                if (goal <= history.oldest()) {
                    return;
                }
                compactThrough(goal);
            } finally {
                commitLock.unlock();
            }
        }
    }

    @Override
    public long newestRevisionCommittedBy(long cutoffMillis) {
        long candidate = history.oldest();
        for (long r = candidate + 1; r <= index.revision(); r++) {
            ChangeEvent event = history.at(r);
            if (event == null) {
                candidate = history.oldest();
                continue;
            }
            if (event.committedAtMillis() > cutoffMillis) {
                break;
            }
            candidate = r;
        }
        return candidate;
    }

    /** Makes {@code target} the oldest readable revision. Commit lock held. */
    private void compactThrough(long target) {
        long from = history.oldest();
        // Publish the new oldest revision before cutting any chain: a reader that sees a cut chain then also
        // sees that its revision is gone, and answers Compacted instead of a short result.
        history.dropThrough(target);
        for (long r = from + 1; r <= target; r++) {
            ObjectKey key = history.at(r).key();
            VersionChain chain = index.chain(key);
            if (chain != null && chain.compact(target)) {
                index.remove(key);
            }
        }
        history.release(from, target);
    }
}
