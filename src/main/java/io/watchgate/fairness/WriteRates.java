package io.watchgate.fairness;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per user for writes: {@code rate} tokens a second, at most {@code burst} saved. A bucket that has
 * filled up again is the same as none, so buckets are kept only while they are not full, and swept out after: the map
 * holds users who wrote in the last {@code burst / rate} seconds, never more than {@code maxUsers} (past that, a new
 * user is admitted without a bucket, and the sweep makes room).
 */
final class WriteRates {

    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final double ratePerNano;
    private final double burst;
    private final int maxUsers;

    WriteRates(double perSecond, int burst, int maxUsers) {
        this.ratePerNano = perSecond / 1e9;
        this.burst = Math.max(1, burst);
        this.maxUsers = maxUsers;
    }

    /** 0 when {@code user} may write now (and a token is taken), else the seconds until it may (at least 1). */
    long tryWrite(String user, long nanoTime) {
        Bucket bucket = buckets.get(user);
        if (bucket == null) {
            if (buckets.size() >= maxUsers) {
                return 0;
            }
            bucket = buckets.computeIfAbsent(user, name -> new Bucket(burst, nanoTime));
        }
        synchronized (bucket) {
            bucket.refill(nanoTime, ratePerNano, burst);
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - bucket.tokens) / ratePerNano / 1e9));
        }
    }

    /** Drops the buckets that are full again: they hold nothing a new bucket would not. */
    void sweep(long nanoTime) {
        buckets.entrySet().removeIf(entry -> {
            Bucket bucket = entry.getValue();
            synchronized (bucket) {
                bucket.refill(nanoTime, ratePerNano, burst);
                return bucket.tokens >= burst;
            }
        });
    }

    int users() {
        return buckets.size();
    }

    private static final class Bucket {
        double tokens;
        long at;

        Bucket(double tokens, long at) {
            this.tokens = tokens;
            this.at = at;
        }

        void refill(long now, double ratePerNano, double burst) {
            if (now > at) {
                tokens = Math.min(burst, tokens + (now - at) * ratePerNano);
                at = now;
            }
        }
    }
}
