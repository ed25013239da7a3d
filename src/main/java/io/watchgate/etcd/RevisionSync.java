package io.watchgate.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Brings a replica's cache to etcd's newest revision when that revision changed none of the store's keys (a key
 * of another program in a shared etcd, the marker's own earlier puts): a put of one key of the store's own under the
 * prefix, which names no object ({@link EtcdKeys#marker()}), and whose event reaches the cache through the watch
 * like any other, after everything before it. kube-apiserver asks etcd for a progress notification instead; etcd
 * before 3.4.31 and 3.5.13 (Debian's 3.4.23 among them) may answer one with a revision whose events it has not
 * sent yet, so a cache would skip them. A put is safe with any etcd.
 *
 * <p>Coalesced: one put in flight at a time, and one more after it if asked meanwhile, so that however many
 * readers wait, etcd sees a put every round trip at most.
 */
final class RevisionSync {

    private static final ByteSequence NOTHING = ByteSequence.from(new byte[0]);

    private final KV kv;
    private final ByteSequence marker;
    private final Duration timeout;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private final AtomicBoolean askedAgain = new AtomicBoolean();

    RevisionSync(KV kv, EtcdKeys keys, Duration timeout) {
        this.kv = kv;
        this.marker = keys.marker();
        this.timeout = timeout;
    }

    /** Has etcd's newest revision, as of now, reach the cache soon. */
    void request() {
        if (!inFlight.compareAndSet(false, true)) {
            askedAgain.set(true);
            return;
        }
        askedAgain.set(false);
        kv.put(marker, NOTHING).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((put, failure) -> {
            inFlight.set(false);
            if (askedAgain.getAndSet(false)) {
                request();
            }
        });
    }
}
