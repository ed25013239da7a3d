package io.watchgate.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.watchgate.store.WatchCache;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Brings a replica's cache to etcd's newest revision when that revision changed none of the store's keys (a key
 * of another program in a shared etcd, another replica's marker): a put of one key of the store's own under the
 * prefix, which names no object ({@link EtcdKeys#marker()}), and whose event reaches the cache through the watch
 * like any other, after everything before it. kube-apiserver asks etcd for a progress notification instead; etcd
 * before 3.4.31 and 3.5.13 (Debian's 3.4.23 among them) may answer one with a revision whose events it has not sent
 * yet, so a cache would skip them. A put is safe with any etcd.
 *
 * <p>A put is asked for when a wait has not ended by itself after {@link #GRACE} (most revisions a reader waits for
 * are events on their way), and not for a revision a put of this replica's already passed; {@link CacheFeed} asks
 * for one too when the cache's revision has not moved for 30 s. One put is in
 * flight at a time, and one more after it if asked meanwhile, so that however many readers wait, etcd sees one
 * put a round trip at most.
 */
final class RevisionSync {

    /** How long a wait may go on by itself before a put is asked for it: kube's progress requester's tick. */
    static final Duration GRACE = Duration.ofMillis(100);
    private static final ByteSequence NOTHING = ByteSequence.from(new byte[0]);
    private static final int IDLE = 0;
    private static final int IN_FLIGHT = 1;
    private static final int ASKED_AGAIN = 2;

    private final KV kv;
    private final ByteSequence marker;
    private final WatchCache cache;
    private final Duration timeout;
    private final Executor afterGrace;
    private final AtomicInteger state = new AtomicInteger(IDLE);
    /** The revision of this replica's newest put that etcd took: its event is on its way to the cache. */
    private final AtomicLong putAt = new AtomicLong();

    RevisionSync(KV kv, EtcdKeys keys, WatchCache cache, Duration timeout) {
        this.kv = kv;
        this.marker = keys.marker();
        this.cache = cache;
        this.timeout = timeout;
        this.afterGrace = CompletableFuture.delayedExecutor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Completes once the cache has reached {@code revision}, asking for a put if it does not by itself. */
    CompletableFuture<Long> await(long revision) {
        CompletableFuture<Long> reached = cache.awaitRevision(revision);
        if (!reached.isDone()) {
            afterGrace.execute(() -> {
                if (!reached.isDone() && revision > putAt.get()) {
                    request();
                }
            });
        }
        return reached;
    }

    /** Has etcd's newest revision, as of now, reach the cache soon. */
    void request() {
        while (true) {
            int now = state.get();
            if (now == IDLE && state.compareAndSet(IDLE, IN_FLIGHT)) {
                put();
                return;
            }
            if (now == ASKED_AGAIN || (now == IN_FLIGHT && state.compareAndSet(IN_FLIGHT, ASKED_AGAIN))) {
                return; // the put in flight will be followed by one more
            }
        }
    }

    private void put() {
        kv.put(marker, NOTHING).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((put, failure) -> {
            if (put != null) {
                putAt.accumulateAndGet(put.getHeader().getRevision(), Math::max);
            }
            if (state.compareAndSet(ASKED_AGAIN, IN_FLIGHT)) {
                put();
            } else {
                state.set(IDLE); // from IN_FLIGHT: only this completion changes it back
            }
        });
    }
}
