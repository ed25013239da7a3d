package io.watchgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The durable-write pipeline without a disk: a log that only queues, and the test reporting for it through the
 * store's {@link LogSink} as the write-ahead log's thread does.
 */
class InFlightWritesTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final MemoryStore store = new MemoryStore(mapper, 100_000, Long.MAX_VALUE, Clock.systemUTC());
    private final QueuingLog log = new QueuingLog();
    private final CommitLog.Sink sink = store.useLog(log);

    /** Queues what it is handed; refuses while {@link #refusing} is set. */
    private static final class QueuingLog implements CommitLog {
        final List<ChangeEvent> queued = new ArrayList<>();
        boolean refusing;
        boolean discarded;

        @Override
        public void append(ChangeEvent event) {
            if (refusing) {
                throw new StoreException.Unavailable("the log takes no writes");
            }
            queued.add(event);
        }

        @Override
        public void discardQueued() {
            discarded = true;
            queued.clear();
        }
    }

    private static ObjectKey key(String name) {
        return new ObjectKey("configmaps", "ns", name);
    }

    private ObjectNode object(String name, String value) {
        ObjectNode node = mapper.createObjectNode();
        node.putObject("metadata").put("name", name);
        node.put("value", value);
        return node;
    }

    @Test
    void aWriteCountsOnlyOnceTheLogReportsItDurable() {
        CompletableFuture<ChangeEvent> created = store.submit(Mutation.create(key("a"), object("a", "1")));

        assertFalse(created.isDone());
        assertEquals(0, store.currentRevision(), "readers see nothing yet");
        assertEquals(List.of(), store.eventsAfter(0));
        assertEquals(1, store.latest(key("a")).revision(), "the next writer does");
        assertThrows(StoreException.KeyExists.class, () -> store.submit(Mutation.create(key("a"), object("a", "2"))));

        sink.durable(List.copyOf(log.queued));
        assertEquals(1, created.join().revision());
        assertEquals(1, store.currentRevision());
        assertEquals("1", store.get(key("a"), 1).tree().path("value").asText());
        assertEquals(1, store.statistics().durableWrites());
    }

    @Test
    void writesInFlightTakeTheNextRevisionsInTurn() {
        CompletableFuture<ChangeEvent> first = store.submit(Mutation.create(key("a"), object("a", "1")));
        CompletableFuture<ChangeEvent> second = store.submit(Mutation.update(key("a"), object("a", "2"), 1));

        assertEquals(List.of(1L, 2L), log.queued.stream().map(ChangeEvent::revision).toList());
        assertSame(log.queued.get(0).object(), log.queued.get(1).previous(), "built on the write before it");
        sink.durable(List.copyOf(log.queued));
        assertEquals(1, first.join().revision());
        assertEquals(2, second.join().revision());
    }

    @Test
    void theLogMustReportInOrder() {
        store.submit(Mutation.create(key("a"), object("a", "1")));
        store.submit(Mutation.create(key("b"), object("b", "1")));

        assertThrows(IllegalStateException.class, () -> sink.durable(List.of(log.queued.get(1))));
        assertEquals(0, store.currentRevision(), "nothing out of order is installed");
    }

    @Test
    void aFailedLogRefusesEveryWriteInFlightAndForgetsThem() {
        CompletableFuture<ChangeEvent> a = store.submit(Mutation.create(key("a"), object("a", "1")));
        CompletableFuture<ChangeEvent> b = store.submit(Mutation.create(key("b"), object("b", "1")));

        sink.failed(new IOException("the disk is gone"));

        for (CompletableFuture<ChangeEvent> write : List.of(a, b)) {
            CompletionException refused = assertThrows(CompletionException.class, write::join);
            assertTrue(refused.getCause() instanceof StoreException.Unavailable, refused.toString());
            assertTrue(refused.getCause().getMessage().contains("the disk is gone"), refused.getMessage());
        }
        assertTrue(log.discarded, "what the log still queued is dropped");
        assertNull(store.latest(key("a")), "the next writer no longer sees a lost write");
        CompletableFuture<ChangeEvent> again = store.submit(Mutation.create(key("a"), object("a", "2")));
        assertEquals(1, log.queued.get(0).revision(), "nothing counted, so the next write takes revision 1");
        sink.durable(List.copyOf(log.queued));
        assertEquals("2", again.join().object().tree().path("value").asText());
    }

    @Test
    void aWriteTheLogRefusesTakesNothing() {
        log.refusing = true;
        assertThrows(StoreException.Unavailable.class, () -> store.submit(Mutation.create(key("a"), object("a", "1"))));
        log.refusing = false;

        assertNull(store.latest(key("a")));
        store.submit(Mutation.create(key("a"), object("a", "2")));
        assertEquals(1, log.queued.get(0).revision());
    }

    @Test
    void aStateShownOnlyOnceItsWriteCounts() {
        store.submit(Mutation.create(key("a"), object("a", "1")));
        StoredObject pending = store.latest(key("a"));
        CompletableFuture<StoredObject> shown = store.counted(pending);

        assertFalse(shown.isDone());
        sink.durable(List.copyOf(log.queued));
        assertSame(pending, shown.join());
        assertTrue(store.counted(pending).isDone(), "once it counts, at once");
    }

    @Test
    void atMostMaxWritesWaitForTheLog() {
        for (int i = 0; i < InFlightWrites.MAX_WRITES; i++) {
            store.submit(Mutation.create(key("w" + i), object("w" + i, "1")));
        }
        StoreException.Unavailable refused = assertThrows(StoreException.Unavailable.class,
                () -> store.submit(Mutation.create(key("one-too-many"), object("x", "1"))));
        assertTrue(refused.getMessage().contains("waiting for the disk"), refused.getMessage());

        sink.durable(List.copyOf(log.queued));
        log.queued.clear();
        store.submit(Mutation.create(key("one-too-many"), object("x", "1")));
        assertEquals(InFlightWrites.MAX_WRITES + 1, log.queued.get(0).revision(), "taken once the log caught up");
    }
}
