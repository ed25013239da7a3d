package io.watchgate.watch.fanout;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * What the watches add up to, for metrics: how many are open per resource and form (chunked, sse, protobuf,
 * websocket), and how many events and bookmarks they were sent. Counted by the event loops, read at any time.
 */
public final class WatchCounts {

    /** One series of open watches. */
    public record Kind(String resource, String form) {
    }

    private final ConcurrentHashMap<Kind, AtomicInteger> open = new ConcurrentHashMap<>();
    private final LongAdder events = new LongAdder();
    private final LongAdder bookmarks = new LongAdder();
    private final LongAdder coalesced = new LongAdder();
    private volatile Consumer<Kind> newKind = kind -> { };

    void started(String resource, String form) {
        Kind kind = new Kind(resource, form);
        AtomicInteger count = open.get(kind);
        if (count == null) {
            AtomicInteger created = new AtomicInteger();
            count = open.putIfAbsent(kind, created);
            if (count == null) {
                count = created;
                newKind.accept(kind);
            }
        }
        count.incrementAndGet();
    }

    void ended(String resource, String form) {
        AtomicInteger count = open.get(new Kind(resource, form));
        if (count != null) {
            count.decrementAndGet();
        }
    }

    void eventsSent(int count) {
        if (count > 0) {
            events.add(count);
        }
    }

    void bookmarkSent() {
        bookmarks.increment();
    }

    void coalescedSent(int count) {
        coalesced.add(count);
    }

    public long coalescedSent() {
        return coalesced.sum();
    }

    public int open(Kind kind) {
        AtomicInteger count = open.get(kind);
        return count == null ? 0 : count.get();
    }

    /** Every kind of watch opened so far, open now or not. */
    public Set<Kind> kinds() {
        return Set.copyOf(open.keySet());
    }

    public long eventsSent() {
        return events.sum();
    }

    public long bookmarksSent() {
        return bookmarks.sum();
    }

    /** Tells {@code listener} of every kind of watch seen so far, and then of each new one as it first opens. */
    public void onNewKind(Consumer<Kind> listener) {
        newKind = listener;
        kinds().forEach(listener);
    }
}
