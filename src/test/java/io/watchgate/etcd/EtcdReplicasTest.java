package io.watchgate.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Commits;
import io.watchgate.store.EventType;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two replicas on one etcd, each with its own watch cache: they serve the same objects at the same revisions, which
 * are etcd's, and etcd's transactions settle the races between them.
 */
class EtcdReplicasTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static EtcdServer etcd;
    private static ExecutorService workers;
    private static EtcdStore a;
    private static EtcdStore b;
    private static int names;

    @BeforeAll
    static void start() {
        etcd = EtcdServer.start();
        workers = Executors.newFixedThreadPool(2);
        a = open();
        b = open();
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable closeable : new AutoCloseable[] {a, b, etcd}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                // closing what a skipped or failed start left
            }
        }
        if (workers != null) {
            workers.shutdownNow();
        }
    }

    private static EtcdStore open() {
        return EtcdStorage.open(TestEtcdConfig.of(etcd), MAPPER, 1000, Long.MAX_VALUE, Clock.systemUTC(),
                MemoryBudget.unbounded(), workers);
    }

    private static ObjectKey freshKey() {
        return new ObjectKey("configmaps", "demo", "cm-" + (++names));
    }

    private static ObjectNode object(ObjectKey key, String value) {
        ObjectNode object = MAPPER.createObjectNode();
        object.putObject("metadata").put("name", key.name()).put("namespace", key.namespace());
        object.put("data", value);
        return object;
    }

    private static void await(EtcdStore store, long revision) {
        store.awaitRevision(revision).orTimeout(10, TimeUnit.SECONDS).join();
    }

    @Test
    void aWriteOnOneReplicaIsServedByTheOtherAtTheSameRevision() {
        ObjectKey key = freshKey();
        ChangeEvent created = Commits.commit(a, Mutation.create(key, object(key, "one")));

        assertEquals(EventType.ADDED, created.type());
        assertEquals(Long.toString(created.revision()), created.object().tree().at("/metadata/resourceVersion")
                .asText(), "the resourceVersion is etcd's revision of the write");
        assertEquals(created.revision(), a.get(key, a.currentRevision()).revision(),
                "the writer's replica serves its own write once it is answered");
        await(b, created.revision());
        assertEquals(created.object().tree(), b.get(key, created.revision()).tree());
        assertTrue(new String(b.get(key, created.revision()).json(), StandardCharsets.UTF_8)
                .contains("\"resourceVersion\":\"" + created.revision() + "\""));
    }

    @Test
    void objectsLiveUnderKubeApiserversKeysWithoutTheirResourceVersion() throws Exception {
        ObjectKey key = freshKey();
        ChangeEvent created = Commits.commit(a, Mutation.create(key, object(key, "stored")));
        try (Client client = Client.builder().endpoints(etcd.endpoint()).build()) {
            List<KeyValue> kvs = client.getKVClient().get(ByteSequence.from("/registry/configmaps/demo/"
                    + key.name(), StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS).getKvs();
            assertEquals(1, kvs.size());
            assertEquals(created.revision(), kvs.get(0).getModRevision());
            ObjectNode stored = (ObjectNode) MAPPER.readTree(kvs.get(0).getValue().getBytes());
            assertEquals("stored", stored.path("data").asText());
            assertFalse(stored.path("metadata").has("resourceVersion"));
        }
    }

    @Test
    void anUpdateFromAStaleReadLosesToTheWriteBeforeIt() {
        ObjectKey key = freshKey();
        ChangeEvent created = Commits.commit(a, Mutation.create(key, object(key, "v1")));
        ChangeEvent updated = Commits.commit(a, Mutation.update(key, object(key, "v2"), created.revision()));

        StoreException.RevisionConflict conflict = assertThrows(StoreException.RevisionConflict.class,
                () -> Commits.commit(b, Mutation.update(key, object(key, "stale"), created.revision())));
        assertEquals(updated.revision(), conflict.current().revision(),
                "the conflict carries the state that won, for the retry to compute from");
        assertEquals("v2", a.get(key, a.currentRevision()).tree().path("data").asText());
    }

    @Test
    void concurrentCreatesOfOneNameOnTwoReplicasMakeOneObject() {
        ObjectKey key = freshKey();
        List<CompletableFuture<ChangeEvent>> creates = new ArrayList<>();
        for (EtcdStore replica : List.of(a, b, a, b)) {
            try {
                creates.add(replica.submit(Mutation.create(key, object(key, "racing"))));
            } catch (StoreException.KeyExists e) {
                creates.add(CompletableFuture.failedFuture(e)); // refused at once: the replica saw the winner
            }
        }
        int made = 0;
        for (CompletableFuture<ChangeEvent> create : creates) {
            try {
                create.join();
                made++;
            } catch (java.util.concurrent.CompletionException e) {
                assertInstanceOf(StoreException.KeyExists.class, e.getCause());
            }
        }
        assertEquals(1, made);
    }

    @Test
    void aCreateGuardedByAKeyThatChangedIsRefused() {
        ObjectKey namespace = new ObjectKey("namespaces", "", "guard-" + (++names));
        ChangeEvent first = Commits.commit(a, Mutation.create(namespace, object(namespace, "x")));
        await(b, first.revision()); // b writes from what it holds, as any writer computes from what it read
        Commits.commit(b, Mutation.update(namespace, object(namespace, "y"), first.revision()));
        ObjectKey key = freshKey();

        assertThrows(StoreException.GuardChanged.class, () -> Commits.commit(a, Mutation.create(key,
                object(key, "in")).guardedBy(namespace, first.revision())));
        assertNull(b.get(key, b.currentRevision()));
    }

    @Test
    void aListOnOneReplicaThenEventsOnTheOtherFromItsRevisionMissNothing() {
        ObjectKey first = freshKey();
        Commits.commit(a, Mutation.create(first, object(first, "before")));
        long listed = a.currentRevision();
        List<String> listedNames = a.list(KeyRange.inNamespace("configmaps", "demo"), listed, null, 10_000,
                o -> true, false).items().stream().map(o -> o.key().name()).toList();
        assertTrue(listedNames.contains(first.name()));

        List<ChangeEvent> written = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ObjectKey key = freshKey();
            written.add(Commits.commit(i % 2 == 0 ? a : b, Mutation.create(key, object(key, "after"))));
        }
        await(b, written.get(written.size() - 1).revision());

        List<Long> seen = b.eventsAfter(listed).stream().map(ChangeEvent::revision).toList();
        assertEquals(written.stream().map(ChangeEvent::revision).toList(), seen);
    }

    @Test
    void aConsistentReadOnOneReplicaSeesAWriteJustMadeOnTheOther() {
        for (int i = 0; i < 20; i++) {
            ObjectKey key = freshKey();
            ChangeEvent written = Commits.commit(b, Mutation.create(key, object(key, "fresh")));
            long consistent = a.consistentRevision().orTimeout(10, TimeUnit.SECONDS).join();
            assertTrue(consistent >= written.revision(), consistent + " < " + written.revision());
            assertEquals("fresh", a.get(key, a.currentRevision()).tree().path("data").asText());
        }
    }

    @Test
    void aReplicaThatFellBehindEtcdsCompactionReadsEverythingAgainAndSaysWhatChanged() throws Exception {
        ObjectKey kept = freshKey();
        ObjectKey changed = freshKey();
        ObjectKey gone = freshKey();
        Commits.commit(a, Mutation.create(kept, object(kept, "same")));
        ChangeEvent before = Commits.commit(a, Mutation.create(changed, object(changed, "old")));
        ChangeEvent doomed = Commits.commit(a, Mutation.create(gone, object(gone, "bye")));
        try (EtcdStore behind = open()) {
            List<ChangeEvent> told = new ArrayList<>();
            long[] replacedAt = {0};
            behind.addCommitListener(new io.watchgate.store.CommitListener() {
                @Override
                public void committed(ChangeEvent event) {
                }

                @Override
                public void replaced(long revision, List<ChangeEvent> changes) {
                    replacedAt[0] = revision;
                    told.addAll(changes);
                }
            });
            long stale = behind.currentRevision();
            behind.feed().pause();
            ObjectKey added = freshKey();
            Commits.commit(a, Mutation.update(changed, object(changed, "new"), before.revision()));
            Commits.commit(a, Mutation.delete(gone, doomed.revision()));
            ChangeEvent last = Commits.commit(a, Mutation.create(added, object(added, "hello")));
            try (Client client = Client.builder().endpoints(etcd.endpoint()).build()) {
                client.getKVClient().compact(last.revision()).get(10, TimeUnit.SECONDS);
            }

            behind.feed().resume();
            await(behind, last.revision());

            long at = behind.currentRevision();
            assertTrue(replacedAt[0] >= last.revision() && replacedAt[0] <= at, "read again at etcd's revision");
            await(a, at);
            assertEquals(a.list(KeyRange.inNamespace("configmaps", "demo"), at, null, 100_000, o -> true, false)
                    .items().stream().map(o -> o.key().name() + "@" + o.revision()).toList(),
                    behind.list(KeyRange.inNamespace("configmaps", "demo"), at, null, 100_000, o -> true, false)
                            .items().stream().map(o -> o.key().name() + "@" + o.revision()).toList());
            assertThrows(StoreException.Compacted.class, () -> behind.eventsAfter(stale, 10),
                    "no history reaches across the gap: a watch from before it is told to relist");
            assertEquals(List.of("MODIFIED " + changed.name(), "DELETED " + gone.name(), "ADDED " + added.name()),
                    told.stream().filter(e -> e.key().namespace().equals("demo"))
                            .filter(e -> List.of(changed, gone, added).contains(e.key()))
                            .sorted(java.util.Comparator.comparing(e -> List.of(changed, gone, added)
                                    .indexOf(e.key())))
                            .map(e -> e.type() + " " + e.key().name()).toList());
            assertFalse(told.stream().anyMatch(e -> e.key().equals(kept)), "what did not change is not told");

            ObjectKey after = freshKey();
            ChangeEvent next = Commits.commit(a, Mutation.create(after, object(after, "followed again")));
            await(behind, next.revision());
            assertEquals(List.of(next.revision()), behind.eventsAfter(at).stream().map(ChangeEvent::revision)
                    .toList());
        }
    }

    @Test
    void anObjectOverEtcdsRequestLimitIsRefusedAsTooLargeAndEtcdStaysUp() {
        ObjectKey key = freshKey();
        // the test etcd keeps its default limit, 1.5 MiB a request; watchgate's own is 3 MiB
        for (int size : new int[] {1_700_000, 2 << 20}) { // refused by etcd, and by its gRPC server
            StoreException.TooLarge refused = assertThrows(StoreException.TooLarge.class,
                    () -> Commits.commit(a, Mutation.create(key, object(key, "x".repeat(size)))), "size " + size);
            assertTrue(refused.getMessage().contains("--max-request-bytes"), refused.getMessage());
        }
        assertTrue(a.health().unreachableFor().isEmpty(), "a client's large object is not etcd being down");
        Commits.commit(a, Mutation.create(key, object(key, "small"))); // and the next write goes through at once
    }

    @Test
    void aRevisionOfEtcdsThatChangedNothingHereIsReachedAllTheSame() throws Exception {
        long other;
        try (Client client = Client.builder().endpoints(etcd.endpoint()).build()) {
            other = client.getKVClient().put(ByteSequence.from("/elsewhere/key", StandardCharsets.UTF_8),
                    ByteSequence.from("x", StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS).getHeader()
                    .getRevision();
        }
        assertTrue(a.currentRevision() < other);

        await(a, other);
        assertTrue(a.currentRevision() >= other);
        assertEquals(List.of(), a.eventsAfter(other - 1), "and no event stands for it");
    }
}
