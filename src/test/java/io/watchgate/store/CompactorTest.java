package io.watchgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Age-based compaction, as the background compactor runs it, through the store's {@link HistoryCompaction}. */
class CompactorTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final SettableClock clock = new SettableClock();
    private final MemoryStore store = new MemoryStore(mapper, 100, Long.MAX_VALUE, clock);
    private final Compactor compactor = new Compactor(store, new History(Duration.ofSeconds(10)), null, clock);

    private static final ObjectKey KEY = new ObjectKey("configmaps", "ns", "a");

    private ObjectNode object(String value) {
        ObjectNode node = mapper.createObjectNode();
        node.putObject("metadata").put("name", "a");
        node.put("value", value);
        return node;
    }

    @Test
    void revisionsOlderThanTheMaximumAgeAreCompactedAndTheNewestStateStays() {
        clock.now = 0;
        Commits.commit(store, Mutation.create(KEY, object("1")));
        clock.now = 5_000;
        Commits.commit(store, Mutation.update(KEY, object("2"), 0));
        clock.now = 20_000;
        Commits.commit(store, Mutation.update(KEY, object("3"), 0));

        clock.now = 16_000; // ten seconds ago, revision 2 was the newest
        compactor.compactExpired();
        assertEquals(2, store.oldestRevision());
        assertThrows(StoreException.Compacted.class, () -> store.get(KEY, 1));
        assertEquals("2", store.get(KEY, 2).tree().path("value").asText());

        clock.now = 1_000_000; // everything is old: all but the newest revision goes
        compactor.compactExpired();
        assertEquals(3, store.oldestRevision());
        assertEquals("3", store.get(KEY, 3).tree().path("value").asText());
    }

    @Test
    void nothingYoungerThanTheMaximumAgeIsCompacted() {
        clock.now = 1_000;
        Commits.commit(store, Mutation.create(KEY, object("1")));
        Commits.commit(store, Mutation.update(KEY, object("2"), 0));
        compactor.compactExpired();
        assertEquals(0, store.oldestRevision());
    }

    private record History(Duration maxAge) implements HistoryConfig {
        @Override
        public int maxRevisions() {
            return 100;
        }

        @Override
        public long maxBytes() {
            return Long.MAX_VALUE;
        }

        @Override
        public Duration compactionInterval() {
            return Duration.ofSeconds(1);
        }
    }
}
