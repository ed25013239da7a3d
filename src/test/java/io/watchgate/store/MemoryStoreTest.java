package io.watchgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.memory.MemoryBudget;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class MemoryStoreTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final MemoryStore store = new MemoryStore(mapper, 100, Long.MAX_VALUE, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

    private static ObjectKey key(String name) {
        return new ObjectKey("configmaps", "ns", name);
    }

    private ObjectNode object(String name, String value) {
        ObjectNode node = mapper.createObjectNode();
        node.putObject("metadata").put("name", name);
        node.put("value", value);
        return node;
    }

    private static List<String> names(Page page) {
        return page.items().stream().map(o -> o.key().name()).toList();
    }

    @Test
    void everyCommitTakesTheNextRevisionAndStampsIt() {
        ChangeEvent created = Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        ChangeEvent updated = Commits.commit(store, Mutation.update(key("a"), object("a", "2"), 1));
        ChangeEvent deleted = Commits.commit(store, Mutation.delete(key("a"), 2));

        assertEquals(List.of(1L, 2L, 3L), List.of(created.revision(), updated.revision(), deleted.revision()));
        assertEquals(List.of(EventType.ADDED, EventType.MODIFIED, EventType.DELETED),
                List.of(created.type(), updated.type(), deleted.type()));
        assertEquals("2", updated.object().tree().at("/metadata/resourceVersion").asText());
        assertTrue(new String(updated.object().json(), StandardCharsets.UTF_8).contains("\"resourceVersion\":\"2\""));
        assertEquals("3", deleted.object().tree().at("/metadata/resourceVersion").asText(),
                "a deleted object carries the delete's revision");
        assertEquals("2", deleted.object().tree().path("value").asText(), "and its last state");
        assertEquals(3, store.currentRevision());
    }

    @Test
    void readsAtAnOlderRevisionSeeThatSnapshot() {
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        Commits.commit(store, Mutation.create(key("b"), object("b", "1")));
        Commits.commit(store, Mutation.update(key("a"), object("a", "2"), 0));
        Commits.commit(store, Mutation.delete(key("b"), 0));

        assertEquals("1", store.get(key("a"), 2).tree().path("value").asText());
        assertEquals("2", store.get(key("a"), 4).tree().path("value").asText());
        assertEquals(List.of("a", "b"), names(store.list(KeyRange.inNamespace("configmaps", "ns"), 3, null, 10, o -> true, true)));
        assertEquals(List.of("a"), names(store.list(KeyRange.inNamespace("configmaps", "ns"), 4, null, 10, o -> true, true)));
        assertNull(store.get(key("b"), 4));
        assertNull(store.get(key("a"), 0));
    }

    @Test
    void preconditionsAreCheckedAtCommit() {
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")));

        assertThrows(StoreException.KeyExists.class, () -> Commits.commit(store, Mutation.create(key("a"), object("a", "x"))));
        assertThrows(StoreException.KeyNotFound.class, () -> Commits.commit(store, Mutation.update(key("b"), object("b", "x"), 0)));
        assertThrows(StoreException.RevisionConflict.class, () -> Commits.commit(store, Mutation.update(key("a"), object("a", "x"), 7)));
        assertEquals(1, store.currentRevision(), "refused writes take no revision");
    }

    @Test
    void aKeyCanBeCreatedAgainAfterItsDeletion() {
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        Commits.commit(store, Mutation.delete(key("a"), 0));
        Commits.commit(store, Mutation.create(key("a"), object("a", "again")));

        assertEquals("again", store.get(key("a"), 3).tree().path("value").asText());
        assertNull(store.get(key("a"), 2));
        assertEquals("1", store.get(key("a"), 1).tree().path("value").asText());
    }

    @Test
    void listPagesInKeyOrderAndCountsWhatRemains() {
        for (String name : List.of("d", "b", "a", "c")) {
            Commits.commit(store, Mutation.create(key(name), object(name, "1")));
        }
        Commits.commit(store, Mutation.create(new ObjectKey("configmaps", "other", "z"), object("z", "1")));
        Commits.commit(store, Mutation.create(new ObjectKey("secrets", "ns", "s"), object("s", "1")));

        Page first = store.list(KeyRange.inNamespace("configmaps", "ns"), 6, null, 2, o -> true, true);
        assertEquals(List.of("a", "b"), names(first));
        assertEquals(2, first.remaining());
        Page second = store.list(KeyRange.inNamespace("configmaps", "ns"), 6, first.last().key(), 2, o -> true, true);
        assertEquals(List.of("c", "d"), names(second));
        assertFalse(second.hasMore());
        assertEquals(List.of("a", "b", "c", "d", "z"),
                names(store.list(KeyRange.allOf("configmaps"), 6, null, 10, o -> true, true)));
    }

    @Test
    void compactedRevisionsAnswerCompactedAndTheNewestStateStays() {
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        Commits.commit(store, Mutation.update(key("a"), object("a", "2"), 0));
        Commits.commit(store, Mutation.create(key("b"), object("b", "1")));
        Commits.commit(store, Mutation.delete(key("b"), 0));

        store.compactTo(3, 1);

        assertEquals(3, store.oldestRevision());
        assertThrows(StoreException.Compacted.class, () -> store.get(key("a"), 2));
        assertThrows(StoreException.Compacted.class, () -> store.eventsAfter(2));
        assertEquals("2", store.get(key("a"), 3).tree().path("value").asText());
        assertEquals("1", store.get(key("b"), 3).tree().path("value").asText());
        assertNull(store.get(key("b"), 4));
        assertEquals(List.of(4L), store.eventsAfter(3).stream().map(ChangeEvent::revision).toList());
    }

    @Test
    void historyIsBoundedByRevisions() {
        MemoryStore small = new MemoryStore(mapper, 10, Long.MAX_VALUE, Clock.systemUTC());
        Commits.commit(small, Mutation.create(key("a"), object("a", "v0")));
        for (int i = 1; i < 25; i++) {
            Commits.commit(small, Mutation.update(key("a"), object("a", "v" + i), 0));
        }
        assertEquals(25, small.currentRevision());
        assertEquals(15, small.oldestRevision());
        assertEquals(10, small.eventsAfter(15).size());
        assertThrows(StoreException.Compacted.class, () -> small.eventsAfter(14));
    }

    @Test
    void eventsAfterARevisionComeInOrder() {
        List<ChangeEvent> seen = new ArrayList<>();
        try (CommitListener.Registration registration = store.addCommitListener(seen::add)) {
            Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
            Commits.commit(store, Mutation.create(key("b"), object("b", "1")));
            Commits.commit(store, Mutation.update(key("a"), object("a", "2"), 0));
        }

        assertEquals(List.of(2L, 3L), store.eventsAfter(1).stream().map(ChangeEvent::revision).toList());
        assertEquals(List.of(1L, 2L, 3L), seen.stream().map(ChangeEvent::revision).toList());
        assertEquals("1", seen.get(2).previous().tree().path("value").asText());
    }

    @Test
    void futureRevisionsCanBeAwaited() {
        assertThrows(StoreException.FutureRevision.class, () -> store.get(key("a"), 1));
        CompletableFuture<Long> reached = store.awaitRevision(2).toCompletableFuture();
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        assertFalse(reached.isDone());
        Commits.commit(store, Mutation.create(key("b"), object("b", "1")));
        assertEquals(2L, reached.join());
    }

    @Test
    void theNewestRevisionCommittedByATimeBoundsAgeBasedCompaction() {
        SettableClock clock = new SettableClock();
        MemoryStore timed = new MemoryStore(mapper, 100, Long.MAX_VALUE, clock);
        Commits.commit(timed, Mutation.create(key("a"), object("a", "1")));
        clock.now = 1_000;
        Commits.commit(timed, Mutation.update(key("a"), object("a", "2"), 0));
        clock.now = 2_000;
        Commits.commit(timed, Mutation.update(key("a"), object("a", "3"), 0));

        assertEquals(0, timed.newestRevisionCommittedBy(-1));
        assertEquals(2, timed.newestRevisionCommittedBy(1_500));
        assertEquals(3, timed.newestRevisionCommittedBy(5_000));

        timed.compactTo(timed.newestRevisionCommittedBy(1_500), 10);
        assertEquals(2, timed.oldestRevision());
        assertEquals("3", timed.get(key("a"), 3).tree().path("value").asText());
    }

    @Test
    void aReadOverlappingTheCompactionOfItsRevisionAnswersCompactedNeverAShortResult() throws Exception {
        MemoryStore big = new MemoryStore(mapper, 100_000, Long.MAX_VALUE, Clock.systemUTC());
        int keys = 2_000;
        for (int i = 0; i < keys; i++) {
            Commits.commit(big, Mutation.create(key("k" + i), object("k" + i, "1")));
        }
        for (int i = 0; i < keys; i++) {
            Commits.commit(big, Mutation.update(key("k" + i), object("k" + i, "2"), 0));
        }
        java.util.concurrent.atomic.AtomicInteger full = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger compacted = new java.util.concurrent.atomic.AtomicInteger();
        Thread reader = new Thread(() -> {
            while (true) {
                try {
                    Page page = big.list(KeyRange.inNamespace("configmaps", "ns"), keys, null, Integer.MAX_VALUE,
                            o -> true, false);
                    assertEquals(keys, page.items().size(), "a read at " + keys + " must see every key");
                    full.incrementAndGet();
                } catch (StoreException.Compacted e) {
                    compacted.incrementAndGet();
                    return;
                }
            }
        });
        reader.start();
        while (full.get() == 0) {
            Thread.onSpinWait();
        }
        big.compactTo(2 * keys, keys);
        reader.join(30_000);
        assertFalse(reader.isAlive());
        assertEquals(1, compacted.get());
    }

    @Test
    void historyIsBoundedByBytesButKeepsTheNewestRevision() {
        MemoryStore small = new MemoryStore(mapper, 1_000, 200, Clock.systemUTC());
        Commits.commit(small, Mutation.create(key("a"), object("a", "x".repeat(150))));
        Commits.commit(small, Mutation.update(key("a"), object("a", "y".repeat(150)), 0));
        Commits.commit(small, Mutation.update(key("a"), object("a", "z".repeat(150)), 0));
        assertEquals(2, small.oldestRevision(), "only the newest event fits in 200 bytes");
        assertEquals("z".repeat(150), small.get(key("a"), 3).tree().path("value").asText());
    }

    @Test
    void aGuardedMutationFailsWhenItsGuardChanged() {
        ObjectKey namespace = new ObjectKey("namespaces", "", "ns");
        Commits.commit(store, Mutation.create(namespace, object("ns", "active")));
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")).guardedBy(namespace, 1));
        Commits.commit(store, Mutation.update(namespace, object("ns", "terminating"), 0));

        assertThrows(StoreException.GuardChanged.class,
                () -> Commits.commit(store, Mutation.create(key("b"), object("b", "1")).guardedBy(namespace, 1)));
        assertNull(store.get(key("b"), store.currentRevision()));
    }

    @Test
    void aCancelledWaitIsForgotten() {
        CompletableFuture<Long> wait = store.awaitRevision(Long.MAX_VALUE);
        assertEquals(1, store.waiting());
        wait.cancel(false);
        assertEquals(0, store.waiting());
    }

    @Test
    void aKeyRecreatedWhileItsTombstoneIsCompactedStaysVisible() {
        MemoryStore tight = new MemoryStore(mapper, 1_000, 1, Clock.systemUTC());
        Commits.commit(tight, Mutation.create(key("x"), object("x", "1")));
        Commits.commit(tight, Mutation.delete(key("x"), 0));
        ChangeEvent recreated = Commits.commit(tight, Mutation.create(key("x"), object("x", "2")));

        assertEquals("2", tight.get(key("x"), recreated.revision()).tree().path("value").asText());
        assertEquals(List.of("x"), names(tight.list(KeyRange.inNamespace("configmaps", "ns"), recreated.revision(),
                null, 10, o -> true, true)));
    }

    @Test
    void compactedEventsLeaveTheRing() {
        EventHistory history = new EventHistory(10, MemoryBudget.unbounded());
        long each = 0;
        for (long r = 1; r <= 3; r++) {
            StoredObject object = new StoredObject(key("a"), object("a", "v"), new byte[100], r);
            each = ObjectSize.inMemory(object);
            history.append(new ChangeEvent(r, EventType.MODIFIED, object, null, 0));
        }
        assertEquals(3 * each, history.retainedBytes());
        history.dropThrough(2);
        history.release(2);
        assertThrows(StoreException.Compacted.class, () -> history.after(1, 10));
        assertEquals(List.of(3L), history.after(2, 10).stream().map(ChangeEvent::revision).toList());
        assertEquals(each, history.retainedBytes());
    }

    @Test
    void historyNeedNotHaveAnEventAtEveryRevision() {
        // a store fed by etcd sees only its own keys' revisions
        EventHistory history = new EventHistory(2, MemoryBudget.unbounded());
        history.startAt(4);
        for (long r : new long[] {5, 9}) {
            history.append(new ChangeEvent(r, EventType.ADDED, new StoredObject(key("k" + r), object("k", "v"),
                    new byte[1], r), null, 0));
        }
        assertEquals(List.of(9L), history.after(6, 10).stream().map(ChangeEvent::revision).toList());
        assertEquals(List.of(5L, 9L), history.after(4, 10).stream().map(ChangeEvent::revision).toList());
        assertEquals(List.of(5L), history.after(4, 1).stream().map(ChangeEvent::revision).toList());
        assertEquals(List.of(), history.after(12, 10));
        assertThrows(StoreException.Compacted.class, () -> history.after(3, 10));
        assertTrue(history.isFull());
    }

    @Test
    void aFailingListenerDoesNotUndoOrHideTheCommit() {
        try (CommitListener.Registration failing = store.addCommitListener(event -> {
            throw new IllegalStateException("listener bug");
        })) {
            ChangeEvent event = Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
            assertEquals(1, event.revision());
            assertEquals("1", store.get(key("a"), 1).tree().path("value").asText());
        }
    }

    @Test
    void aClosedRegistrationHearsNoMoreCommits() {
        List<Long> seen = new ArrayList<>();
        CommitListener.Registration registration = store.addCommitListener(event -> seen.add(event.revision()));
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        registration.close();
        Commits.commit(store, Mutation.create(key("b"), object("b", "1")));
        assertEquals(List.of(1L), seen);
        assertEquals(0, store.listening());
    }

    @Test
    void aListenerAddedTwiceIsToldTwiceUntilBothRegistrationsAreClosed() {
        List<Long> seen = new ArrayList<>();
        CommitListener listener = event -> seen.add(event.revision());
        CommitListener.Registration first = store.addCommitListener(listener);
        CommitListener.Registration second = store.addCommitListener(listener);
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        first.close();
        first.close();
        Commits.commit(store, Mutation.create(key("b"), object("b", "1")));
        second.close();
        Commits.commit(store, Mutation.create(key("c"), object("c", "1")));
        assertEquals(List.of(1L, 1L, 2L), seen, "closing one registration twice removes one listener, once");
    }

    @Test
    void theStatisticsCountObjectsByResourceAsCommitsInstall() {
        Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        Commits.commit(store, Mutation.create(key("b"), object("b", "1")));
        Commits.commit(store, Mutation.update(key("a"), object("a", "2"), 0));
        Commits.commit(store, Mutation.create(new ObjectKey("secrets", "ns", "s"), object("s", "1")));
        Commits.commit(store, Mutation.delete(key("b"), 0));

        ObjectCounts counts = store.statistics().objectCounts();
        assertEquals(1, counts.of("configmaps"));
        assertEquals(1, counts.of("secrets"));
        assertEquals(0, counts.of("pods"));
        assertEquals(java.util.Set.of("configmaps", "secrets"), counts.resources());
        assertEquals(0, store.statistics().durableWrites(), "in memory, no write waits for a disk");
    }

    @Test
    void aRefusedWriteCompactsNothing() {
        MemoryStore small = new MemoryStore(mapper, 2, Long.MAX_VALUE, Clock.systemUTC());
        Commits.commit(small, Mutation.create(key("a"), object("a", "1")));
        Commits.commit(small, Mutation.create(key("b"), object("b", "1")));
        assertEquals(0, small.oldestRevision());
        assertThrows(StoreException.KeyExists.class, () -> Commits.commit(small, Mutation.create(key("a"), object("a", "2"))));
        assertEquals(0, small.oldestRevision(), "a write that commits nothing must not shorten history");
    }

    @Test
    void aScanExaminesABoundedStretchOfKeysHoweverSelectiveItsFilter() {
        for (String name : List.of("a", "b", "c", "d", "e")) {
            Commits.commit(store, Mutation.create(key(name), object(name, name.equals("e") ? "wanted" : "other")));
        }
        long snapshot = store.currentRevision();
        Commits.commit(store, Mutation.update(key("e"), object("e", "changed later"), snapshot));
        KeyRange range = new KeyRange("configmaps", "ns");
        java.util.function.Predicate<StoredObject> wanted = o -> o.tree().path("value").asText().equals("wanted");

        Scan first = store.scan(range, snapshot, null, 2, wanted);
        assertEquals(List.of(), first.matches());
        assertEquals(key("b"), first.lastExamined(), "two keys examined, none matched");
        Scan second = store.scan(range, snapshot, first.lastExamined(), 2, wanted);
        assertEquals(key("d"), second.lastExamined());
        Scan last = store.scan(range, snapshot, second.lastExamined(), 2, wanted);
        assertEquals(List.of("e"), last.matches().stream().map(o -> o.key().name()).toList(),
                "the snapshot's version of e, not the later one");
        assertTrue(last.isDone());
    }
}
