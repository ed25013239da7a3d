package io.watchgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.memory.MemoryBudget;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The store's history and its writes in flight count into the server's memory budget, which may refuse writes. */
class StoreMemoryBudgetTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final MemoryBudget budget = new MemoryBudget(1 << 20, 2);

    @Test
    void historyCountsAsItGrowsAndStopsCountingAsItIsCompacted() {
        MemoryStore store = new MemoryStore(mapper, 3, Long.MAX_VALUE, Clock.systemUTC(), budget);
        List<ChangeEvent> events = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            events.add(Commits.commit(store, Mutation.create(key("cm-" + i), object("cm-" + i, 1000 * (i + 1)))));
        }

        long retained = 0;
        for (ChangeEvent event : events.subList(2, 5)) { // three revisions are kept
            retained += event.object().json().length + ObjectSize.tree(event.object().tree());
        }
        assertEquals(retained, budget.used(MemoryBudget.Use.HISTORY), "serialized, and as trees");
        assertEquals(retained, budget.used());
    }

    @Test
    void historyCountsAnObjectOfManySmallFieldsAtWhatItsTreeTakesNotAtItsJson() {
        MemoryStore store = new MemoryStore(mapper, 100, Long.MAX_VALUE, Clock.systemUTC(), budget);
        ObjectNode small = mapper.createObjectNode();
        small.putObject("metadata").put("name", "fields");
        ObjectNode data = small.putObject("data");
        for (int i = 0; i < 10_000; i++) {
            data.put("k" + i, "v");
        }
        ChangeEvent event = Commits.commit(store, Mutation.create(key("fields"), small));

        long json = event.object().json().length;
        // each field: an entry, its key String and a text node with its String; about 16 bytes of JSON
        assertTrue(budget.used(MemoryBudget.Use.HISTORY) > 10 * json,
                budget.used(MemoryBudget.Use.HISTORY) + " counted for " + json + " bytes of JSON");
    }

    @Test
    void pastTheBudgetAWriteIsRefusedWithoutChangingAnythingAndAcceptedOnceBackUnder() {
        MemoryStore store = new MemoryStore(mapper, 100, Long.MAX_VALUE, Clock.systemUTC(), budget);
        Commits.commit(store, Mutation.create(key("before"), object("before", 10)));
        long revision = store.currentRevision();
        budget.charge(MemoryBudget.Use.WATCHERS, budget.limit()); // stalled watchers nobody has ended yet

        StoreException.Overloaded refused = assertThrows(StoreException.Overloaded.class,
                () -> store.submit(Mutation.create(key("refused"), object("refused", 10))));
        assertEquals(2, refused.retryAfterSeconds());
        assertEquals(revision, store.currentRevision(), "nothing was written");
        assertEquals(null, store.latest(key("refused")));
        assertEquals(1, budget.shed(MemoryBudget.Shed.WRITES));

        budget.release(MemoryBudget.Use.WATCHERS, budget.limit());
        Commits.commit(store, Mutation.create(key("accepted"), object("accepted", 10)));
        assertEquals(revision + 1, store.currentRevision());
    }

    @Test
    void aWriteWaitingForTheDiskCountsUntilItMovesIntoHistory() {
        MemoryStore store = new MemoryStore(mapper, 100, Long.MAX_VALUE, Clock.systemUTC(), budget);
        List<ChangeEvent> queued = new ArrayList<>();
        CommitLog.Sink sink = store.useLog(new CommitLog() {
            @Override
            public void append(ChangeEvent event) {
                queued.add(event);
            }

            @Override
            public void discardQueued() {
                queued.clear();
            }
        });
        store.submit(Mutation.create(key("cm"), object("cm", 5000)));
        long size = queued.get(0).object().json().length;

        assertEquals(size, budget.used(MemoryBudget.Use.WRITES));
        assertEquals(0, budget.used(MemoryBudget.Use.HISTORY));
        sink.durable(List.copyOf(queued));
        assertEquals(0, budget.used(MemoryBudget.Use.WRITES));
        assertEquals(ObjectSize.inMemory(queued.get(0).object()), budget.used(MemoryBudget.Use.HISTORY));
    }

    private static ObjectKey key(String name) {
        return new ObjectKey("configmaps", "ns", name);
    }

    private ObjectNode object(String name, int bytes) {
        ObjectNode node = mapper.createObjectNode();
        node.putObject("metadata").put("name", name);
        node.putObject("data").put("k", "x".repeat(bytes));
        return node;
    }
}
