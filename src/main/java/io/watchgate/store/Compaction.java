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
            while (history.isFull() || (history.retainedBytes() > maxHistoryBytes && !history.isEmpty())) {
                compactThrough(history.bySequence(history.firstSequence()).revision());
            }
        }
    }

    @Override
    public void compactTo(long target, int batch) {
        while (true) {
            commitLock.lock();
            try {
                long goal = Math.min(target, index.revision());
                long last = Math.min(history.nextSequence(), history.firstSequence() + batch) - 1;
                if (last >= history.firstSequence()) {
                    goal = Math.min(goal, history.bySequence(last).revision());
                }
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
        return history.newestCommittedBy(cutoffMillis);
    }

    /** Makes {@code target} the oldest readable revision. Commit lock held. */
    private void compactThrough(long target) {
        // Publish the new oldest revision before cutting any chain: a reader that sees a cut chain then also
        // sees that its revision is gone, and answers Compacted instead of a short result.
        history.dropThrough(target);
        long sequence = history.firstSequence();
        for (; sequence < history.nextSequence(); sequence++) {
            ChangeEvent event = history.bySequence(sequence);
            if (event.revision() > target) {
                break;
            }
            VersionChain chain = index.chain(event.key());
            if (chain != null && chain.compact(target)) {
                index.remove(event.key());
            }
        }
        history.release(sequence);
    }
}
