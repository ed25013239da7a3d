package io.watchgate.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The cache of encoded events is bounded in bytes: its oldest frames go first, and come back as they were. */
class EncodedEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int OBJECT_BYTES = 10_000;

    private final MemoryBudget budget = new MemoryBudget(Long.MAX_VALUE / 2, 1);

    @Test
    void framesPastTheByteBoundAreDroppedOldestFirstAndEncodedAgainAsTheyWere() {
        long bound = 10L * 2 * OBJECT_BYTES; // about ten events: a frame and the object it pins each
        EncodedEvents cache = new EncodedEvents(JSON, budget, bound);
        ChangeEvent first = event(1);
        EncodedEvent firstEntry = cache.of(first);
        Buffer firstFrame = frameOf(firstEntry);
        for (long r = 2; r <= 100; r++) {
            frameOf(cache.of(event(r)));
            assertTrue(cache.bytes() <= bound, "at revision " + r + ": " + cache.bytes() + " bytes cached");
        }

        assertEquals(cache.bytes(), budget.used(MemoryBudget.Use.FRAMES));
        EncodedEvent again = cache.of(first);
        assertNotSame(firstEntry, again, "the first event's frames were dropped");
        assertEquals(firstFrame, frameOf(again), "and encoded again, byte for byte");
        assertTrue(budget.shed(MemoryBudget.Shed.FRAMES) >= 90, "dropped " + budget.shed(MemoryBudget.Shed.FRAMES));
    }

    @Test
    void theNewestEventKeepsItsFramesEvenWhenLargerThanTheBound() {
        EncodedEvents cache = new EncodedEvents(JSON, budget, 1000);
        ChangeEvent big = event(1);
        EncodedEvent entry = cache.of(big);
        frameOf(entry);

        assertSame(entry, cache.of(big), "every loop fanning it out shares its frames");
    }

    @Test
    void pastTheBudgetTheCacheDropsItsOldestFramesUntilBackUnder() {
        MemoryBudget tight = new MemoryBudget(20L * 2 * OBJECT_BYTES, 1);
        EncodedEvents cache = new EncodedEvents(JSON, tight, Long.MAX_VALUE);
        ChangeEvent[] events = new ChangeEvent[11];
        EncodedEvent[] entries = new EncodedEvent[11];
        for (int r = 1; r <= 10; r++) {
            events[r] = event(r);
            entries[r] = cache.of(events[r]);
            frameOf(entries[r]);
        }
        long cached = cache.bytes();
        tight.charge(MemoryBudget.Use.HISTORY, tight.limit() - cached / 2);

        assertTrue(!tight.isOver(), tight.toString());
        assertTrue(cache.bytes() <= cached / 2, cache.bytes() + " bytes still cached");
        assertSame(entries[10], cache.of(events[10]), "the newest stayed");
        assertNotSame(entries[1], cache.of(events[1]), "the oldest went first");
    }

    @Test
    void pastTheBudgetWithNothingElseToGiveTheNewestEventStillKeepsItsFrames() {
        MemoryBudget tight = new MemoryBudget(20L * 2 * OBJECT_BYTES, 1);
        EncodedEvents cache = new EncodedEvents(JSON, tight, Long.MAX_VALUE);
        ChangeEvent newest = null;
        for (int r = 1; r <= 10; r++) {
            newest = event(r);
            frameOf(cache.of(newest));
        }
        tight.charge(MemoryBudget.Use.HISTORY, tight.limit());

        assertTrue(cache.bytes() <= 2 * OBJECT_BYTES + 100, cache.bytes() + " bytes still cached");
        assertSame(cache.of(newest), cache.of(newest));
    }

    @Test
    void watchersCatchingUpInAnyOrderNeitherBreakTheBoundNorTheCount() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int size = 1000;
        long bound = 50L * 2 * size;
        EncodedEvents cache = new EncodedEvents(JSON, budget, bound);
        ChangeEvent[] events = new ChangeEvent[30_000]; // the ring holds 8,192: catching up wraps around it
        for (int r = 1; r < events.length; r++) {
            events[r] = event(r, size);
        }
        long maxEntry = 3L * size;
        for (int step = 0; step < 40_000; step++) {
            // live events in order, and now and then a watcher catching up from anywhere behind
            int revision = random.nextInt(4) > 0 ? Math.min(events.length - 1, step + 1)
                    : 1 + random.nextInt(Math.min(events.length - 1, step + 1));
            EncodedEvent entry = cache.of(events[revision]);
            entry.frame(random.nextBoolean() ? WireFormat.JSON_LINES : WireFormat.SERVER_SENT_EVENTS,
                    EncodedEvent.Variant.AS_COMMITTED, ObjectRendering.AS_STORED);
            assertTrue(cache.bytes() <= bound + 2 * maxEntry, "seed " + seed + ", step " + step + ": "
                    + cache.bytes() + " bytes cached");
            assertEquals(cache.bytes(), budget.used(MemoryBudget.Use.FRAMES), "seed " + seed + ", step " + step);
        }
    }

    private static Buffer frameOf(EncodedEvent entry) {
        return entry.frame(WireFormat.JSON_LINES, EncodedEvent.Variant.AS_COMMITTED, ObjectRendering.AS_STORED);
    }

    private static ChangeEvent event(long revision) {
        return event(revision, OBJECT_BYTES);
    }

    private static ChangeEvent event(long revision, int size) {
        ObjectNode tree = JSON.createObjectNode();
        tree.put("apiVersion", "v1").put("kind", "ConfigMap");
        tree.putObject("metadata").put("name", "big").put("namespace", "ns")
                .put("resourceVersion", Long.toString(revision));
        tree.putObject("data").put("k", "x".repeat(size - 120));
        byte[] json;
        try {
            json = JSON.writeValueAsBytes(tree);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        StoredObject object = new StoredObject(new ObjectKey("configmaps", "ns", "big"), tree, json, revision);
        return new ChangeEvent(revision, EventType.MODIFIED, object, null, 0);
    }
}
