package io.watchgate.etcd;

import io.etcd.jetcd.Client;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.CommitListener;
import io.watchgate.store.HistoryCompaction;
import io.watchgate.store.InFlightWrites;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectCounts;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Page;
import io.watchgate.store.Preconditions;
import io.watchgate.store.Scan;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoreStatistics;
import io.watchgate.store.StoredObject;
import io.watchgate.store.WatchCache;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * A store on etcd v3, as kube-apiserver's: etcd orders and keeps every write (a revision of etcd's is an object's
 * resourceVersion), and this replica serves reads and watches from its {@link WatchCache}, which {@link CacheFeed}
 * keeps in step with etcd. Replicas on one etcd serve the same objects at the same revisions.
 *
 * <p>A write is checked against the cache first (most conflicts are refused at once, as in the embedded store),
 * then committed by one etcd transaction ({@link Transactions}), which checks it again where it counts: a write of
 * another replica in between fails the future with the same refusals.
 */
public final class EtcdStore implements Store, StoreStatistics, HistoryCompaction, AutoCloseable {

    private final Client client;
    private final WatchCache cache;
    private final CacheFeed feed;
    private final RevisionSync sync;
    private final Transactions transactions;
    private final StoredValues values;
    private final MemoryBudget budget;
    private final EtcdHealth health;
    private final AtomicInteger writesInFlight = new AtomicInteger();
    private final AtomicLong bytesInFlight = new AtomicLong();
    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder acknowledgeNanos = new LongAdder();

    EtcdStore(Client client, WatchCache cache, CacheFeed feed, RevisionSync sync, Transactions transactions,
            StoredValues values, MemoryBudget budget, EtcdHealth health) {
        this.client = client;
        this.cache = cache;
        this.feed = feed;
        this.sync = sync;
        this.transactions = transactions;
        this.values = values;
        this.budget = budget;
        this.health = health;
    }

    public EtcdHealth health() {
        return health;
    }

    /** What keeps the cache in step with etcd (tests pause it). */
    CacheFeed feed() {
        return feed;
    }

    @Override
    public long currentRevision() {
        return cache.revision();
    }

    @Override
    public CompletableFuture<Long> consistentRevision() {
        if (health.unreachableFor().isPresent()) {
            return CompletableFuture.completedFuture(cache.revision()); // reads go on from what the cache holds
        }
        CompletableFuture<Long> consistent = new CompletableFuture<>();
        feed.etcdRevision().whenComplete((revision, failure) -> {
            if (revision == null || revision < 0) {
                consistent.complete(cache.revision());
                return;
            }
            CompletableFuture<Long> reached = awaitRevision(revision);
            consistent.whenComplete((done, cancelled) -> reached.cancel(false)); // a reader that gave up lets go
            reached.thenAccept(at -> consistent.complete(revision));
        });
        return consistent;
    }

    @Override
    public long oldestRevision() {
        return cache.oldest();
    }

    @Override
    public CompletableFuture<ChangeEvent> submit(Mutation mutation) {
        if (!budget.admitsWrite()) {
            throw new StoreException.Overloaded("the server is short of memory and takes no writes for now",
                    budget.retryAfterSeconds());
        }
        health.unreachableFor().ifPresent(down -> {
            throw new StoreException.Unavailable("etcd does not answer (for " + down.toSeconds() + " s): "
                    + health.lastFailure());
        });
        StoredObject current = cache.newest(mutation.key());
        Preconditions.check(mutation, current);
        for (Mutation.Guard guard : mutation.guards()) {
            Preconditions.checkGuard(guard, cache.newest(guard.key()));
        }
        byte[] value = mutation.op() == Mutation.Op.DELETE ? null : values.encode(mutation.object());
        long bytes = value == null ? 0 : value.length;
        int writes = writesInFlight.incrementAndGet();
        long waiting = bytesInFlight.addAndGet(bytes);
        if (writes > InFlightWrites.MAX_WRITES || waiting > InFlightWrites.MAX_BYTES) {
            writesInFlight.decrementAndGet();
            bytesInFlight.addAndGet(-bytes);
            throw new StoreException.Unavailable("too many writes are waiting for etcd; try again shortly");
        }
        long started = System.nanoTime();
        CompletableFuture<ChangeEvent> committed;
        try {
            committed = transactions.commit(mutation, current, value);
        } catch (RuntimeException e) {
            writesInFlight.decrementAndGet();
            bytesInFlight.addAndGet(-bytes);
            throw e;
        }
        return committed.whenComplete((event, failure) -> {
            writesInFlight.decrementAndGet();
            bytesInFlight.addAndGet(-bytes);
            if (failure == null) {
                acknowledged.increment();
                acknowledgeNanos.add(System.nanoTime() - started);
            }
        });
    }

    /** What the cache holds: a write of another replica this one has not seen yet is caught by etcd's compare. */
    @Override
    public StoredObject latest(ObjectKey key) {
        return cache.newest(key);
    }

    /** Everything the cache holds is committed in etcd. */
    @Override
    public CompletableFuture<StoredObject> counted(StoredObject object) {
        return CompletableFuture.completedFuture(object);
    }

    @Override
    public StoredObject get(ObjectKey key, long revision) {
        return cache.get(key, revision);
    }

    @Override
    public Page list(KeyRange range, long revision, ObjectKey startAfter, int limit, Predicate<StoredObject> filter,
            boolean countRemaining) {
        return cache.list(range, revision, startAfter, limit, filter, countRemaining);
    }

    @Override
    public Scan scan(KeyRange range, long revision, ObjectKey startAfter, int maxExamined,
            Predicate<StoredObject> filter) {
        return cache.scan(range, revision, startAfter, maxExamined, filter);
    }

    @Override
    public List<ChangeEvent> eventsAfter(long revision) {
        return cache.eventsAfter(revision, Integer.MAX_VALUE);
    }

    @Override
    public List<ChangeEvent> eventsAfter(long revision, int limit) {
        return cache.eventsAfter(revision, limit);
    }

    @Override
    public CompletableFuture<Long> awaitRevision(long revision) {
        return sync.await(revision); // etcd may be there already, with nothing under the prefix to show for it
    }

    @Override
    public CommitListener.Registration addCommitListener(CommitListener listener) {
        return cache.addCommitListener(listener);
    }

    @Override
    public StoreStatistics statistics() {
        return this;
    }

    @Override
    public ObjectCounts objectCounts() {
        return cache.objectCounts();
    }

    @Override
    public long durableWrites() {
        return acknowledged.sum();
    }

    @Override
    public long durableWaitNanos() {
        return acknowledgeNanos.sum();
    }

    @Override
    public void compactTo(long target, int batch) {
        cache.compactTo(target, batch);
    }

    @Override
    public long newestRevisionCommittedBy(long cutoffMillis) {
        return cache.newestRevisionCommittedBy(cutoffMillis);
    }

    @Override
    public void close() {
        feed.close();
        client.close();
    }
}
