package io.watchgate.watch;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.memory.MemoryConfig;
import io.watchgate.store.ChangeEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;

/**
 * The encoded form of recent events, so that an event is framed once whether watchers get it live or while
 * catching up from history. Keeps at most the last {@value #RECENT} revisions, and at most {@link #maxBytes} of
 * them, counted as their frames plus the object each pins; the oldest are dropped first, past that bound or
 * whenever the server's memory budget is exceeded, and encoded again if a watcher still needs them.
 *
 * <p>Bytes are counted once per frame built (per event, format and rendering), never per watcher.
 */
@ApplicationScoped
public class EncodedEvents {

    private static final int RECENT = 8192;

    private final ObjectMapper mapper;
    private final MemoryBudget budget;
    private final long maxBytes;
    private final AtomicReferenceArray<EncodedEvent> recent = new AtomicReferenceArray<>(RECENT);
    /** The bytes of the cached entries. */
    private final AtomicLong bytes = new AtomicLong();
    /**
     * Where dropping starts: no cached entry is older, but for those put back by watchers catching up from far
     * behind, which are dropped as their slots come round.
     */
    private final AtomicLong oldest = new AtomicLong(Long.MAX_VALUE);
    /** The newest revision cached: it is never dropped, so that every loop fanning it out shares its frames. */
    private final AtomicLong newest = new AtomicLong();

    @Inject
    EncodedEvents(ObjectMapper mapper, MemoryBudget budget, MemoryConfig config) {
        this(mapper, budget, (long) (budget.limit() * config.frameCacheFraction()));
    }

    /** A cache bounded by count only (tests, tools). */
    public EncodedEvents(ObjectMapper mapper) {
        this(mapper, MemoryBudget.unbounded(), Long.MAX_VALUE);
    }

    EncodedEvents(ObjectMapper mapper, MemoryBudget budget, long maxBytes) {
        this.mapper = mapper;
        this.budget = budget;
        this.maxBytes = maxBytes;
        budget.shedder(MemoryBudget.Shed.FRAMES, b -> dropOldestWhile(b::isOver));
    }

    public EncodedEvent of(ChangeEvent event) {
        long revision = event.revision();
        int slot = slot(revision);
        EncodedEvent cached = recent.get(slot);
        if (cached != null && cached.event() == event) {
            return cached;
        }
        EncodedEvent fresh = new EncodedEvent(event, mapper, this);
        if (!recent.compareAndSet(slot, cached, fresh)) {
            EncodedEvent winner = recent.get(slot);
            return winner != null && winner.event() == event ? winner : EncodedEvent.uncached(event, mapper);
        }
        if (cached != null) {
            drop(cached);
        }
        newest.accumulateAndGet(revision, Math::max);
        oldest.accumulateAndGet(revision, Math::min);
        // the object the entry keeps alive, which history may already have let go of
        charge(fresh, event.object().json().length);
        return fresh;
    }

    /** Counts {@code size} more bytes kept by {@code entry}, unless it has left the cache. */
    void charge(EncodedEvent entry, long size) {
        if (entry.addCharge(size)) {
            bytes.addAndGet(size);
            budget.charge(MemoryBudget.Use.FRAMES, size);
            dropOldestWhile(() -> bytes.get() > maxBytes);
        }
    }

    /** The bytes of the cached entries: frames, and the objects they keep alive. */
    public long bytes() {
        return bytes.get();
    }

    private void dropOldestWhile(BooleanSupplier tooMuch) {
        long dropped = 0;
        while (tooMuch.getAsBoolean()) {
            long revision = oldest.get();
            long top = newest.get();
            if (revision >= top) {
                break;
            }
            if (revision <= top - RECENT) {
                oldest.compareAndSet(revision, top - RECENT + 1); // nothing that old is in the ring
                continue;
            }
            if (!oldest.compareAndSet(revision, revision + 1)) {
                continue; // another thread dropped it
            }
            int slot = slot(revision);
            EncodedEvent entry = recent.get(slot);
            // an older entry in the slot is one a watcher catching up from history put back: dropped as well
            if (entry != null && entry.revision() <= revision && recent.compareAndSet(slot, entry, null)) {
                drop(entry);
                dropped++;
            }
        }
        if (dropped > 0) {
            budget.shed(MemoryBudget.Shed.FRAMES, dropped);
        }
    }

    private void drop(EncodedEvent entry) {
        long charged = entry.uncache();
        if (charged > 0) {
            bytes.addAndGet(-charged);
            budget.release(MemoryBudget.Use.FRAMES, charged);
        }
    }

    private static int slot(long revision) {
        return (int) (revision % RECENT);
    }
}
