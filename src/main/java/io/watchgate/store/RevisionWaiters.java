package io.watchgate.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** Readers waiting for the store to reach a revision, ordered by it so that a commit releases them cheaply. */
final class RevisionWaiters {

    /** The published revision: read again after registering, which is what a commit racing this wait needs. */
    private final LongSupplier published;
    private final ConcurrentSkipListSet<Waiter> waiters = new ConcurrentSkipListSet<>();
    private final AtomicLong waiterIds = new AtomicLong();

    RevisionWaiters(LongSupplier published) {
        this.published = published;
    }

    /** One reader waiting for a revision; each has its own future, which it may cancel when it gives up. */
    private record Waiter(long revision, long id, CompletableFuture<Long> future) implements Comparable<Waiter> {
        @Override
        public int compareTo(Waiter other) {
            int byRevision = Long.compare(revision, other.revision);
            return byRevision != 0 ? byRevision : Long.compare(id, other.id);
        }
    }

    /** Completes once the store publishes {@code rev}; cancelling the returned future stops the wait. */
    CompletableFuture<Long> await(long rev) {
        long reached = published.getAsLong();
        if (reached >= rev) {
            return CompletableFuture.completedFuture(reached);
        }
        Waiter waiter = new Waiter(rev, waiterIds.incrementAndGet(), new CompletableFuture<>());
        waiters.add(waiter);
        waiter.future().whenComplete((done, failure) -> waiters.remove(waiter));
        reached = published.getAsLong();
        if (reached >= rev) {
            // the commit that reached rev may have looked for waiters just before this one registered
            release(reached);
        }
        return waiter.future();
    }

    /** Completes the waits for {@code reached} or an older revision: after the commit published it. */
    void release(long reached) {
        if (waiters.isEmpty()) {
            return;
        }
        for (Waiter waiter : waiters.headSet(new Waiter(reached, Long.MAX_VALUE, null), true)) {
            waiter.future().complete(reached);
        }
    }

    int waiting() {
        return waiters.size();
    }
}
