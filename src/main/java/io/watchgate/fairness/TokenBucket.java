package io.watchgate.fairness;

/**
 * Tokens that come back at a steady rate, up to a burst: what a rate limit spends, one token an action. Not
 * thread-safe: its owner guards it, or keeps it on one thread.
 */
public final class TokenBucket {

    private final double ratePerNano;
    private final double burst;
    private double tokens;
    private long at;

    /** Full at {@code nanoTime}: {@code burst} tokens (one at least), coming back {@code perSecond} a second. */
    public TokenBucket(double perSecond, double burst, long nanoTime) {
        this.ratePerNano = perSecond / 1e9;
        this.burst = Math.max(1, burst);
        this.tokens = this.burst;
        this.at = nanoTime;
    }

    /** 0 when a token was there (and is taken now), else the seconds until one is (at least 1). */
    public long take(long nanoTime) {
        refill(nanoTime);
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - tokens) / ratePerNano / 1e9));
    }

    /** Whether it is full again: a bucket that is holds nothing a new one would not. */
    boolean isFull(long nanoTime) {
        refill(nanoTime);
        return tokens >= burst;
    }

    private void refill(long now) {
        if (now > at) {
            tokens = Math.min(burst, tokens + (now - at) * ratePerNano);
            at = now;
        }
    }
}
