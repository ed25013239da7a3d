package io.watchgate.fairness;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link TokenBucket} per user for writes: {@code rate} tokens a second, at most {@code burst} saved. A bucket that
 * has filled up again is the same as none, so buckets are kept only while they are not full, and swept out after: the
 * map holds users who wrote in the last {@code burst / rate} seconds, never more than {@code maxUsers} (past that, a
 * new user is admitted without a bucket, and the sweep makes room).
 */
final class WriteRates {

    private final ConcurrentHashMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final double perSecond;
    private final double burst;
    private final int maxUsers;

    WriteRates(double perSecond, int burst, int maxUsers) {
        this.perSecond = perSecond;
        this.burst = Math.max(1, burst);
        this.maxUsers = maxUsers;
    }

    /** 0 when {@code user} may write now (and a token is taken), else the seconds until it may (at least 1). */
    long tryWrite(String user, long nanoTime) {
        TokenBucket bucket = buckets.get(user);
        if (bucket == null) {
            if (buckets.size() >= maxUsers) {
                return 0;
            }
            bucket = buckets.computeIfAbsent(user, name -> new TokenBucket(perSecond, burst, nanoTime));
        }
        synchronized (bucket) {
            return bucket.take(nanoTime);
        }
    }

    /** Drops the buckets that are full again: they hold nothing a new bucket would not. */
    void sweep(long nanoTime) {
        buckets.entrySet().removeIf(entry -> {
            TokenBucket bucket = entry.getValue();
            synchronized (bucket) {
                return bucket.isFull(nanoTime);
            }
        });
    }

    int users() {
        return buckets.size();
    }
}
