package io.watchgate.memory;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One account of the bytes the server keeps on behalf of clients, against one limit. The users charge and release
 * as they keep and drop: the cache of encoded frames, watchers stalled with bytes queued for their clients, the
 * store's history, and writes waiting for the disk. Past the limit the server sheds load in a fixed order: cached
 * frames first (they can be encoded again), then stalled watchers (they re-watch, as after any slow-client end),
 * and only then writes are refused (429 with Retry-After) until the account is back under the limit.
 *
 * <p>Charges come per event or per stall, never per watcher per event; each is one atomic add.
 */
public final class MemoryBudget {

    /** Who keeps the bytes. */
    public enum Use {
        FRAMES, WATCHERS, HISTORY, WRITES,
        /**
         * The working memory of writes being parsed, checked and patched, reserved before they start: bounded by a
         * cap of its own ({@link #tryReserve}), apart from the limit, so that a reservation never sheds what others
         * keep nor counts against the write it is for.
         */
        COMPUTING;

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What was given up to get back under the limit (new watches are refused, as writes, until back under). */
    public enum Shed {
        FRAMES, WATCHERS, WRITES, NEW_WATCHES;

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Gives up some of what one user keeps, cheapest first; may finish later, on another thread. */
    @FunctionalInterface
    public interface Shedder {
        void shed(MemoryBudget budget);
    }

    private final long limit;
    private final int retryAfterSeconds;
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong[] used = new AtomicLong[Use.values().length];
    private final LongAdder[] shed = new LongAdder[Shed.values().length];
    /** By what they give up, asked in that order: cheapest loss first. */
    private final AtomicReferenceArray<Shedder> shedders = new AtomicReferenceArray<>(Shed.values().length);
    private final AtomicBoolean relieving = new AtomicBoolean();

    public MemoryBudget(long limit, int retryAfterSeconds) {
        if (limit < 1) {
            throw new IllegalArgumentException("a memory budget must be positive, not " + limit);
        }
        this.limit = limit;
        this.retryAfterSeconds = retryAfterSeconds;
        for (int i = 0; i < used.length; i++) {
            used[i] = new AtomicLong();
        }
        for (int i = 0; i < shed.length; i++) {
            shed[i] = new LongAdder();
        }
    }

    /** A budget that is never exceeded: for stores and caches made outside the application. */
    public static MemoryBudget unbounded() {
        return new MemoryBudget(Long.MAX_VALUE, 1);
    }

    /** Sets who gives up {@code what} when the budget is exceeded (writes are refused here, by {@link #admitsWrite}). */
    public void shedder(Shed what, Shedder shedder) {
        shedders.set(what.ordinal(), shedder);
    }

    public void charge(Use use, long bytes) {
        used[use.ordinal()].addAndGet(bytes);
        if (total.addAndGet(bytes) > limit) {
            relieve();
        }
    }

    /**
     * Reserves {@code bytes} for {@code use} if that use stays within {@code cap}, or holds nothing yet (so that one
     * large request can always go ahead alone). Reservations are counted apart from the limit: they neither shed
     * what others keep nor make the budget over. A refusal is counted as a write shed.
     *
     * @return whether they were reserved; if so, {@link #unreserve} gives them back
     */
    public boolean tryReserve(Use use, long bytes, long cap) {
        AtomicLong counter = used[use.ordinal()];
        long before;
        do {
            before = counter.get();
            if (before > 0 && before + bytes > cap) {
                shed(Shed.WRITES, 1);
                return false;
            }
        } while (!counter.compareAndSet(before, before + bytes));
        return true;
    }

    public void unreserve(Use use, long bytes) {
        used[use.ordinal()].addAndGet(-bytes);
    }

    public void release(Use use, long bytes) {
        used[use.ordinal()].addAndGet(-bytes);
        total.addAndGet(-bytes);
    }

    public long limit() {
        return limit;
    }

    public long used() {
        return total.get();
    }

    public long used(Use use) {
        return used[use.ordinal()].get();
    }

    public boolean isOver() {
        return total.get() > limit;
    }

    /**
     * Whether a write may go ahead: yes while under the limit; past it, the server sheds what it can first, and
     * refuses (and counts) the write if that did not bring it back under at once.
     */
    public boolean admitsWrite() {
        if (!isOver()) {
            return true;
        }
        relieve();
        if (!isOver()) {
            return true;
        }
        shed(Shed.WRITES, 1);
        return false;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** Counts {@code count} shedding actions of one kind. */
    public void shed(Shed what, long count) {
        shed[what.ordinal()].add(count);
    }

    public long shed(Shed what) {
        return shed[what.ordinal()].sum();
    }

    /** Asks the shedders in order while over the limit; one thread at a time, the others go on. */
    private void relieve() {
        if (!relieving.compareAndSet(false, true)) {
            return;
        }
        try {
            for (int i = 0; i < shedders.length() && isOver(); i++) {
                Shedder shedder = shedders.get(i);
                if (shedder != null) {
                    shedder.shed(this);
                }
            }
        } finally {
            relieving.set(false);
        }
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder().append(total.get()).append(" of ").append(limit).append(" bytes (");
        for (Use use : Use.values()) {
            text.append(use == Use.FRAMES ? "" : ", ").append(use.tag()).append(' ').append(used(use));
        }
        return text.append(')').toString();
    }
}
