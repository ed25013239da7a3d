package io.watchgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.etcd.EtcdServer;
import io.watchgate.etcd.TestStores;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every {@link Store} promises, whatever keeps its objects: the embedded store and a replica's cache of etcd
 * answer the same. Revisions are compared with each other, never with numbers: etcd's start where etcd is.
 */
class StoreContractTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static EtcdServer etcd;
    private static int prefixes;
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** A store of one kind, made fresh for each test. */
    interface Kind {
        Store open(StoreContractTest test);
    }

    static Stream<Named<Kind>> stores() {
        List<Named<Kind>> kinds = new ArrayList<>();
        kinds.add(Named.of("embedded", test -> new MemoryStore(MAPPER, 5, Long.MAX_VALUE, Clock.systemUTC())));
        if (EtcdServer.isInstalled()) {
            kinds.add(Named.of("etcd", test -> test.track(TestStores.onEtcd(etcd(), "/contract" + (++prefixes),
                    5))));
        }
        return kinds.stream();
    }

    private static synchronized EtcdServer etcd() {
        if (etcd == null) {
            etcd = EtcdServer.start();
        }
        return etcd;
    }

    private Store track(Store store) {
        opened.add((AutoCloseable) store);
        return store;
    }

    @AfterEach
    void closeStores() throws Exception {
        for (AutoCloseable store : opened) {
            store.close();
        }
    }

    @AfterAll
    static void stopEtcd() {
        if (etcd != null) {
            etcd.close();
            etcd = null;
        }
    }

    private static ObjectKey key(String name) {
        return new ObjectKey("configmaps", "ns", name);
    }

    private static ObjectNode object(String name, String value) {
        ObjectNode node = MAPPER.createObjectNode();
        node.putObject("metadata").put("name", name).put("namespace", "ns");
        node.put("value", value);
        return node;
    }

    private static List<String> names(Page page) {
        return page.items().stream().map(o -> o.key().name()).toList();
    }

    private static String value(StoredObject object) {
        return object.tree().path("value").asText();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void everyCommitTakesANewerRevisionAndIsStampedWithIt(Kind kind) {
        Store store = kind.open(this);
        ChangeEvent created = Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        ChangeEvent updated = Commits.commit(store, Mutation.update(key("a"), object("a", "2"), created.revision()));
        ChangeEvent deleted = Commits.commit(store, Mutation.delete(key("a"), updated.revision()));

        assertTrue(created.revision() < updated.revision() && updated.revision() < deleted.revision());
        assertEquals(List.of(EventType.ADDED, EventType.MODIFIED, EventType.DELETED),
                List.of(created.type(), updated.type(), deleted.type()));
        assertEquals(Long.toString(updated.revision()), updated.object().tree().at("/metadata/resourceVersion")
                .asText());
        assertTrue(new String(updated.object().json(), StandardCharsets.UTF_8)
                .contains("\"resourceVersion\":\"" + updated.revision() + "\""), "the bytes say it too");
        assertEquals(Long.toString(deleted.revision()), deleted.object().tree().at("/metadata/resourceVersion")
                .asText(), "a deleted object carries the delete's revision");
        assertEquals("2", value(deleted.object()), "and its last state");
        assertEquals("2", value(deleted.previous()));
        assertTrue(store.currentRevision() >= deleted.revision());
    }

    @ParameterizedTest
    @MethodSource("stores")
    void readsAtAnOlderRevisionSeeThatSnapshot(Kind kind) {
        Store store = kind.open(this);
        ChangeEvent a1 = Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        ChangeEvent b1 = Commits.commit(store, Mutation.create(key("b"), object("b", "1")));
        ChangeEvent a2 = Commits.commit(store, Mutation.update(key("a"), object("a", "2"), a1.revision()));
        ChangeEvent bGone = Commits.commit(store, Mutation.delete(key("b"), b1.revision()));
        KeyRange ns = KeyRange.inNamespace("configmaps", "ns");

        assertEquals("1", value(store.get(key("a"), b1.revision())));
        assertEquals("2", value(store.get(key("a"), bGone.revision())));
        assertEquals(List.of("a", "b"), names(store.list(ns, a2.revision(), null, 10, o -> true, true)));
        assertEquals(List.of("a"), names(store.list(ns, bGone.revision(), null, 10, o -> true, true)));
        assertNull(store.get(key("b"), bGone.revision()));
        assertNull(store.get(key("a"), a1.revision() - 1));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void refusedWritesChangeNothing(Kind kind) {
        Store store = kind.open(this);
        ChangeEvent created = Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        long before = store.currentRevision();

        assertThrows(StoreException.KeyExists.class, () -> Commits.commit(store, Mutation.create(key("a"),
                object("a", "x"))));
        assertThrows(StoreException.KeyNotFound.class, () -> Commits.commit(store, Mutation.update(key("b"),
                object("b", "x"), 0)));
        StoreException.RevisionConflict conflict = assertThrows(StoreException.RevisionConflict.class,
                () -> Commits.commit(store, Mutation.update(key("a"), object("a", "x"), created.revision() + 1000)));
        assertEquals(created.revision(), conflict.current().revision(), "the state the writer should compute from");
        assertEquals("1", value(store.latest(key("a"))));
        assertEquals(List.of(), store.eventsAfter(before), "refused writes make no event");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aGuardedWriteFailsWhenItsGuardChangedOrWentAway(Kind kind) {
        Store store = kind.open(this);
        ObjectKey namespace = new ObjectKey("namespaces", "", "ns");
        ChangeEvent ns1 = Commits.commit(store, Mutation.create(namespace, object("ns", "1")));
        Commits.commit(store, Mutation.create(key("in"), object("in", "1")).guardedBy(namespace, ns1.revision()));
        ChangeEvent ns2 = Commits.commit(store, Mutation.update(namespace, object("ns", "2"), ns1.revision()));

        assertThrows(StoreException.GuardChanged.class, () -> Commits.commit(store, Mutation.create(key("late"),
                object("late", "1")).guardedBy(namespace, ns1.revision())));
        Commits.commit(store, Mutation.delete(namespace, ns2.revision()));
        assertThrows(StoreException.GuardChanged.class, () -> Commits.commit(store, Mutation.create(key("later"),
                object("later", "1")).guardedBy(namespace, ns2.revision())));
        assertNull(store.latest(key("late")));
        assertNull(store.latest(key("later")));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aKeyCanBeCreatedAgainAfterItsDeletion(Kind kind) {
        Store store = kind.open(this);
        ChangeEvent first = Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        ChangeEvent gone = Commits.commit(store, Mutation.delete(key("a"), first.revision()));
        ChangeEvent again = Commits.commit(store, Mutation.create(key("a"), object("a", "2")));

        assertEquals(EventType.ADDED, again.type());
        assertNull(store.get(key("a"), gone.revision()));
        assertEquals("2", value(store.get(key("a"), again.revision())));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void listsPageInKeyOrderAndCountWhatRemains(Kind kind) {
        Store store = kind.open(this);
        for (String name : List.of("d", "b", "e", "a", "c")) {
            Commits.commit(store, Mutation.create(key(name), object(name, name)));
        }
        long at = store.currentRevision();
        KeyRange ns = KeyRange.inNamespace("configmaps", "ns");
        Page first = store.list(ns, at, null, 2, o -> true, true);
        Page second = store.list(ns, at, first.last().key(), 2, o -> true, true);
        Page third = store.list(ns, at, second.last().key(), 2, o -> true, true);

        assertEquals(List.of("a", "b"), names(first));
        assertEquals(3, first.remaining());
        assertEquals(List.of("c", "d"), names(second));
        assertEquals(List.of("e"), names(third));
        assertFalse(third.hasMore());
        assertEquals(List.of("b", "d"), names(store.list(ns, at, null, 10, o -> "bd".contains(value(o)), true)));
        Scan scan = store.scan(ns, at, null, 2, o -> value(o).equals("b"));
        assertEquals(List.of("b"), scan.matches().stream().map(o -> o.key().name()).toList());
    }

    @ParameterizedTest
    @MethodSource("stores")
    void eventsAfterARevisionComeInOrderAndAreToldToListenersOnce(Kind kind) throws Exception {
        Store store = kind.open(this);
        long start = store.currentRevision();
        List<ChangeEvent> told = new ArrayList<>();
        List<ChangeEvent> written = new ArrayList<>();
        try (CommitListener.Registration listening = store.addCommitListener(event -> {
            synchronized (told) {
                told.add(event);
            }
        })) {
            for (int i = 0; i < 4; i++) {
                written.add(Commits.commit(store, Mutation.create(key("k" + i), object("k" + i, "v"))));
            }
            store.awaitRevision(written.get(3).revision()).get(10, TimeUnit.SECONDS);
        }
        List<Long> revisions = written.stream().map(ChangeEvent::revision).toList();
        assertEquals(revisions, store.eventsAfter(start).stream().map(ChangeEvent::revision).toList());
        assertEquals(revisions.subList(1, 3), store.eventsAfter(revisions.get(0), 2).stream()
                .map(ChangeEvent::revision).toList());
        synchronized (told) {
            assertEquals(revisions, told.stream().map(ChangeEvent::revision).toList());
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aFutureRevisionCanBeAwaited(Kind kind) throws Exception {
        Store store = kind.open(this);
        long next = store.currentRevision() + 1;
        CompletableFuture<Long> reached = store.awaitRevision(next);
        CompletableFuture<Long> farOff = store.awaitRevision(next + 1_000_000);
        ChangeEvent written = Commits.commit(store, Mutation.create(key("a"), object("a", "1")));
        assertTrue(reached.get(10, TimeUnit.SECONDS) >= next);
        assertTrue(store.consistentRevision().get(10, TimeUnit.SECONDS) >= written.revision());
        assertFalse(farOff.isDone(), "a revision no write made yet is not reached");
        farOff.cancel(false);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void historyIsBoundedAndARevisionBeyondItIsCompacted(Kind kind) {
        Store store = kind.open(this); // both keep 5 events
        ChangeEvent first = Commits.commit(store, Mutation.create(key("a"), object("a", "0")));
        ChangeEvent last = first;
        for (int i = 1; i <= 8; i++) {
            last = Commits.commit(store, Mutation.update(key("a"), object("a", Integer.toString(i)),
                    last.revision()));
        }
        long lastRevision = last.revision();
        assertThrows(StoreException.Compacted.class, () -> store.eventsAfter(first.revision(), 10));
        assertThrows(StoreException.Compacted.class, () -> store.get(key("a"), first.revision()));
        assertTrue(store.oldestRevision() > first.revision());
        assertEquals("8", value(store.get(key("a"), lastRevision)), "the newest state stays");
        assertEquals(5, store.eventsAfter(store.oldestRevision()).size());
    }
}
