package io.watchgate.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.CommitListener;
import io.watchgate.store.EventType;
import io.watchgate.store.Commits;
import io.watchgate.store.InFlightWrites;
import io.watchgate.store.KeyRange;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the data directory promises: acknowledged writes, their revisions and the history survive a restart. */
class DurableStorageTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    private final List<DurableStorage> opened = new ArrayList<>();


    private DurableSettings settings() {
        return new DurableSettings(dir.toString(), false, 64 * 1024 * 1024, 1L << 40);
    }

    static MemoryStore newStore(int history) {
        return new MemoryStore(JSON, history, Long.MAX_VALUE, CLOCK);
    }

    private MemoryStore open(DurableSettings settings, int history) {
        return open(settings, history, WriteAheadLog.Channels.FILES);
    }

    private MemoryStore open(DurableSettings settings, int history, WriteAheadLog.Channels channels) {
        MemoryStore store = newStore(history);
        opened.add(DurableStorage.open(settings, store, JSON, channels));
        return store;
    }

    /** Stops the last opened storage as a process exit would: the directory is released, nothing more. */
    /** A store on a disk whose syncs fail while {@code failing} and wait for {@code disk} to open. */
    private MemoryStore openOn(int history, AtomicBoolean failing, CountDownLatch disk) {
        return open(settings(), history, file -> new FailingChannel(WriteAheadLog.Channels.FILES.open(file), failing,
                disk));
    }

    private DurableStorage stopLast() throws IOException {
        DurableStorage storage = opened.remove(opened.size() - 1);
        storage.close();
        return storage;
    }

    @AfterEach
    void closeAll() throws IOException {
        for (DurableStorage storage : opened) {
            storage.close();
        }
    }

    private static ObjectKey key(String name) {
        return new ObjectKey("configmaps", "default", name);
    }

    private static ObjectNode object(String name, int value) {
        ObjectNode node = JSON.createObjectNode();
        node.put("apiVersion", "v1").put("kind", "ConfigMap");
        node.putObject("metadata").put("name", name).put("namespace", "default");
        node.putObject("data").put("value", Integer.toString(value));
        return node;
    }

    /** A fixed mix of creates, updates and deletes over a few keys. */
    static void workload(Store store, int mutations, long seed) {
        Random random = new Random(seed);
        for (int i = 0; i < mutations; i++) {
            String name = "cm-" + random.nextInt(20);
            StoredObject current = store.get(key(name), store.currentRevision());
            if (current == null) {
                Commits.commit(store, Mutation.create(key(name), object(name, i)));
            } else if (random.nextInt(4) == 0) {
                Commits.commit(store, Mutation.delete(key(name), current.revision()));
            } else {
                Commits.commit(store, Mutation.update(key(name), object(name, i), current.revision()));
            }
        }
    }

    /** Events as lines a failed assertion shows whole: revision, type, object, the object before, commit time. */
    static List<String> describe(List<ChangeEvent> events) {
        List<String> described = new ArrayList<>();
        for (ChangeEvent event : events) {
            described.add(event.revision() + " " + event.type() + " " + new String(event.object().json())
                    + " after " + (event.previous() == null ? "nothing" : new String(event.previous().json()))
                    + " at " + event.committedAtMillis());
        }
        return described;
    }

    /** The configmaps live at {@code revision}, as lines: their revision and JSON. */
    static List<String> state(Store store, long revision) {
        List<String> state = new ArrayList<>();
        for (StoredObject object : store.list(KeyRange.allOf("configmaps"), revision, null, Integer.MAX_VALUE,
                o -> true, false).items()) {
            state.add(object.revision() + " " + new String(object.json()));
        }
        return state;
    }

    @Test
    void writesHistoryAndOlderRevisionsComeBackAsIfThereHadBeenNoRestart() throws Exception {
        MemoryStore reference = newStore(50);
        workload(reference, 400, 7);
        // the same run, durable, with a snapshot every few kilobytes: recovery goes through snapshots and log
        DurableSettings snapshotting = new DurableSettings(dir.toString(), false, 16 * 1024, 8 * 1024);
        MemoryStore durable = open(snapshotting, 50);
        workload(durable, 400, 7);
        opened.get(0).snapshot();
        workload(durable, 0, 7);
        stopLast();
        assertTrue(Files.list(dir).anyMatch(f -> f.getFileName().toString().endsWith(".snap")), "a snapshot");

        MemoryStore recovered = open(snapshotting, 50);
        assertEquals(reference.currentRevision(), recovered.currentRevision());
        assertEquals(reference.oldestRevision(), recovered.oldestRevision());
        assertEquals(describe(reference.eventsAfter(reference.oldestRevision())),
                describe(recovered.eventsAfter(recovered.oldestRevision())));
        for (long revision = reference.oldestRevision(); revision <= reference.currentRevision(); revision += 7) {
            assertEquals(state(reference, revision), state(recovered, revision), "the state at " + revision);
        }
        // and it goes on where it stopped
        ChangeEvent next = Commits.commit(recovered, Mutation.create(key("after"), object("after", 1)));
        assertEquals(reference.currentRevision() + 1, next.revision());
    }

    @Test
    void aRestartWithoutSnapshotsReplaysTheWholeLog() throws Exception {
        MemoryStore store = open(settings(), 1000);
        workload(store, 300, 11);
        List<String> before = describe(store.eventsAfter(0));
        stopLast();
        MemoryStore recovered = open(settings(), 1000);
        assertEquals(before, describe(recovered.eventsAfter(0)));
        assertEquals(300, recovered.currentRevision());
        assertEquals(300, opened.get(0).recovered().logEntries());
    }

    @Test
    void aTornLastWriteIsCutOffAndReported() throws Exception {
        MemoryStore store = open(settings(), 1000);
        workload(store, 30, 3);
        stopLast();
        Path segment = lastSegment();
        long intact = Files.size(segment);
        // the start of a record whose payload never made it to disk
        Files.write(segment, new byte[] {0, 0, 1, 0, 1, 2, 3, 4, 1, 0, 0}, StandardOpenOption.APPEND);

        MemoryStore recovered = open(settings(), 1000);
        assertEquals(30, recovered.currentRevision());
        assertEquals(11, opened.get(0).recovered().droppedBytes());
        assertEquals(intact, Files.size(segment), "the torn bytes are gone from the file");
        assertEquals(31, Commits.commit(recovered, Mutation.create(key("next"), object("next", 0))).revision());
    }

    @Test
    void aLastRecordWithABadChecksumIsATornWriteToo() throws Exception {
        MemoryStore store = open(settings(), 1000);
        workload(store, 10, 5);
        stopLast();
        Path segment = lastSegment();
        flipByteAt(segment, Files.size(segment) - 3);
        MemoryStore recovered = open(settings(), 1000);
        assertEquals(9, recovered.currentRevision(), "the last entry was not whole");
    }

    @Test
    void damageBeforeTheEndOfTheLogStopsTheStartNamingFileAndOffset() throws Exception {
        MemoryStore store = open(settings(), 1000);
        workload(store, 30, 3);
        stopLast();
        Path segment = lastSegment();
        flipByteAt(segment, 20); // inside the first entry
        StorageException e = assertThrows(StorageException.class, () -> open(settings(), 1000));
        assertTrue(e.getMessage().contains(segment.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("at offset 0"), e.getMessage());
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void aMissingDataDirectoryIsAClearErrorUnlessItMayBeCreated() throws Exception {
        Path missing = dir.resolve("not-mounted");
        StorageException e = assertThrows(StorageException.class,
                () -> open(new DurableSettings(missing.toString(), false, 1 << 20, 1 << 20), 100));
        assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("does not exist"),
                e.getMessage());
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        e = assertThrows(StorageException.class, () -> open(new DurableSettings(file.toString(), false, 1 << 20, 1 << 20), 100));
        assertTrue(e.getMessage().contains("not a directory"), e.getMessage());

        MemoryStore created = open(new DurableSettings(missing.toString(), true, 1 << 20, 1 << 20), 100);
        assertEquals(0, created.currentRevision());
        assertTrue(Files.isDirectory(missing));
        e = assertThrows(StorageException.class, () -> open(new DurableSettings(missing.toString(), true, 1 << 20, 1 << 20), 100));
        assertTrue(e.getMessage().contains("in use"), e.getMessage());
    }

    @Test
    void aFailingDiskRefusesTheWriteLeavesTheStoreAsItWasAndTakesNoMoreUntilARestart() throws Exception {
        AtomicBoolean failing = new AtomicBoolean();
        MemoryStore store = openOn(1000, failing, new CountDownLatch(0));
        Commits.commit(store, Mutation.create(key("a"), object("a", 1)));
        failing.set(true);
        assertThrows(StoreException.Unavailable.class, () -> Commits.commit(store, Mutation.create(key("b"), object("b", 2))));
        assertEquals(1, store.currentRevision(), "nothing was applied");
        assertNull(store.get(key("b"), store.currentRevision()));
        assertEquals("1", store.get(key("a"), 1).tree().at("/data/value").asText(), "reads go on");

        // the cut could not be synced either: what the disk holds is unknown, so no write is taken until a
        // restart has looked
        failing.set(false);
        StoreException.Unavailable refused = assertThrows(StoreException.Unavailable.class,
                () -> Commits.commit(store, Mutation.update(key("a"), object("a", 3), 1)));
        assertTrue(refused.getMessage().contains("restart"), refused.getMessage());
        assertTrue(opened.get(0).log().refusal().contains("restart"), "what the liveness probe reports");
        stopLast();
        MemoryStore recovered = open(settings(), 1000);
        assertEquals(1, recovered.currentRevision());
        assertNull(recovered.get(key("b"), 1), "a refused write does not come back");
        assertEquals(2, Commits.commit(recovered, Mutation.create(key("c"), object("c", 4))).revision(), "no revision is reused");
    }

    @Test
    void aSubmittedWriteCountsOnlyOnceSyncedWhileTheNextWriterAlreadySeesIt() throws Exception {
        CountDownLatch disk = new CountDownLatch(1);
        MemoryStore store = openOn(1000, new AtomicBoolean(), disk);
        CompletableFuture<ChangeEvent> created = store.submit(Mutation.create(key("a"), object("a", 1)));
        assertThrows(StoreException.KeyExists.class, () -> store.submit(Mutation.create(key("a"), object("a", 2))),
                "the precondition sees the write on its way to the disk");
        CompletableFuture<ChangeEvent> updated = store.submit(Mutation.update(key("a"), object("a", 3), 1));
        assertFalse(created.isDone());
        assertEquals(0, store.currentRevision(), "readers see nothing before the sync");
        disk.countDown();
        assertEquals(1, created.get(10, TimeUnit.SECONDS).revision());
        assertEquals(2, updated.get(10, TimeUnit.SECONDS).revision());
        assertEquals("3", store.get(key("a"), 2).tree().at("/data/value").asText());
    }

    @Test
    void aWriterComputesFromTheNewestStateSoItNeverConflictsWithAWriteWaitingForTheDisk() throws Exception {
        CountDownLatch disk = new CountDownLatch(1);
        MemoryStore store = openOn(1000, new AtomicBoolean(), disk);
        CompletableFuture<ChangeEvent> created = store.submit(Mutation.create(key("a"), object("a", 1)));
        StoredObject pending = store.latest(key("a"));
        assertEquals(1, pending.revision(), "writers see the write on its way");
        assertNull(store.get(key("a"), store.currentRevision()), "readers do not");
        CompletableFuture<StoredObject> shown = store.counted(pending);
        CompletableFuture<ChangeEvent> updated = store.submit(Mutation.update(key("a"), object("a", 2),
                pending.revision()));
        assertFalse(shown.isDone(), "a state is only shown once it counts");
        disk.countDown();
        assertEquals(1, created.get(10, TimeUnit.SECONDS).revision());
        assertEquals(2, updated.get(10, TimeUnit.SECONDS).revision());
        assertEquals(pending, shown.get(10, TimeUnit.SECONDS));
        assertTrue(store.counted(store.latest(key("a"))).isDone(), "what counts already is shown at once");
    }

    @Test
    void aStateWhoseWriteIsRefusedIsNeverShown() throws Exception {
        CountDownLatch disk = new CountDownLatch(1);
        AtomicBoolean failing = new AtomicBoolean(true);
        MemoryStore store = openOn(1000, failing, disk);
        CompletableFuture<ChangeEvent> created = store.submit(Mutation.create(key("a"), object("a", 1)));
        CompletableFuture<StoredObject> shown = store.counted(store.latest(key("a")));
        disk.countDown();
        ExecutionException refused = assertThrows(ExecutionException.class, () -> shown.get(10, TimeUnit.SECONDS));
        assertTrue(refused.getCause() instanceof StoreException.Unavailable, refused.toString());
        assertThrows(ExecutionException.class, () -> created.get(10, TimeUnit.SECONDS));
        assertNull(store.latest(key("a")));
    }

    @Test
    void theBytesWaitingForAStalledDiskAreBoundedToo() throws Exception {
        CountDownLatch disk = new CountDownLatch(1);
        MemoryStore store = openOn(100_000, new AtomicBoolean(), disk);
        String large = "x".repeat(64 * 1024);
        List<CompletableFuture<ChangeEvent>> waiting = new ArrayList<>();
        try {
            while (waiting.size() <= InFlightWrites.MAX_WRITES) {
                ObjectNode object = object("w", waiting.size());
                ((ObjectNode) object.get("data")).put("large", large);
                waiting.add(store.submit(Mutation.create(key("w" + waiting.size()), object)));
            }
        } catch (StoreException.Unavailable e) {
            assertTrue(e.getMessage().contains("waiting for the disk"), e.getMessage());
        } finally {
            disk.countDown();
        }
        long bound = InFlightWrites.MAX_BYTES / large.length();
        assertTrue(waiting.size() >= bound / 2 && waiting.size() <= bound + 1, waiting.size() + " writes waited");
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }

    @Test
    void aStalledDiskHoldsABoundedNumberOfWritesAndRefusesTheRest() throws Exception {
        CountDownLatch disk = new CountDownLatch(1);
        MemoryStore store = openOn(100_000, new AtomicBoolean(), disk);
        List<CompletableFuture<ChangeEvent>> waiting = new ArrayList<>();
        for (int i = 0; i < InFlightWrites.MAX_WRITES; i++) {
            waiting.add(store.submit(Mutation.create(key("w" + i), object("w", i))));
        }
        StoreException.Unavailable refused = assertThrows(StoreException.Unavailable.class,
                () -> store.submit(Mutation.create(key("one-too-many"), object("x", 0))));
        assertTrue(refused.getMessage().contains("waiting for the disk"), refused.getMessage());
        disk.countDown();
        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals(InFlightWrites.MAX_WRITES, store.currentRevision());
        assertEquals(InFlightWrites.MAX_WRITES + 1,
                Commits.commit(store, Mutation.create(key("one-too-many"), object("x", 0))).revision(), "taken once it caught up");
    }

    @Test
    void aDamagedRecordLengthWithWholeRecordsAfterItStopsTheStart() throws Exception {
        MemoryStore store = open(settings(), 1000);
        workload(store, 30, 3);
        stopLast();
        Path segment = lastSegment();
        flipByteAt(segment, 1); // the first record's length now points far past the end of the file
        StorageException e = assertThrows(StorageException.class, () -> open(settings(), 1000));
        assertTrue(e.getMessage().contains("at offset 0"), e.getMessage());
    }

    @Test
    void anEntryOfAnUnknownEventTypeStopsTheStartAsDamageNotAsACrash() throws Exception {
        MemoryStore store = open(settings(), 1000);
        workload(store, 5, 3);
        stopLast();
        Path segment = lastSegment();
        long offset = Files.size(segment);
        byte[] payload = Records.entry(new LogEntry(6, 0, EventType.ADDED, key("x"),
                "{}".getBytes(StandardCharsets.UTF_8)));
        payload[1 + 8 + 8] = 9; // a whole record, checksum and all: no torn write, but no event type either
        Files.write(segment, Records.wrap(payload).array(), StandardOpenOption.APPEND);

        StorageException e = assertThrows(StorageException.class, () -> open(settings(), 1000));
        assertTrue(e.getMessage().contains(segment.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("at offset " + offset), e.getMessage());
        assertTrue(e.getMessage().contains("unknown event type code 9"), e.getMessage());
    }

    @Test
    void aZeroFilledTailIsCutLikeATornWrite() throws Exception {
        MemoryStore store = open(settings(), 1000);
        workload(store, 10, 5);
        stopLast();
        Path segment = lastSegment();
        long intact = Files.size(segment);
        Files.write(segment, new byte[4096], StandardOpenOption.APPEND);
        MemoryStore recovered = open(settings(), 1000);
        assertEquals(10, recovered.currentRevision());
        assertEquals(4096, opened.get(0).recovered().droppedBytes());
        assertEquals(intact, Files.size(segment));
    }

    @Test
    void aFailingListenerNeitherLosesNorHoldsUpTheWrite() throws Exception {
        MemoryStore store = open(settings(), 1000);
        try (CommitListener.Registration failing = store.addCommitListener(event -> {
            if (event.revision() == 2) {
                throw new AssertionError("a listener's bug");
            }
        })) {
            Commits.commit(store, Mutation.create(key("a"), object("a", 1)));
            assertEquals(2, Commits.commit(store, Mutation.create(key("b"), object("b", 2))).revision());
            assertEquals(3, Commits.commit(store, Mutation.create(key("c"), object("c", 3))).revision());
        }
    }

    @Test
    void concurrentWritersShareSyncs() throws Exception {
        MemoryStore store = open(settings(), 100_000);
        int writers = 32;
        int each = 50;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    Commits.commit(store, Mutation.create(key("w" + writer + "-" + i), object("w", i)));
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        WriteAheadLog log = opened.get(0).log();
        assertEquals(writers * each, log.entries());
        assertEquals(writers * each, store.currentRevision());
        assertTrue(log.syncs() < log.entries() / 2, log.syncs() + " syncs for " + log.entries() + " entries");
    }

    private Path lastSegment() throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("wal-")).sorted()
                    .filter(f -> {
                        try {
                            return Files.size(f) > 0;
                        } catch (IOException e) {
                            return false;
                        }
                    }).reduce((a, b) -> b).orElseThrow();
        }
    }

    static void flipByteAt(Path file, long offset) throws IOException {
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(offset);
            int value = raw.read();
            raw.seek(offset);
            raw.write(value ^ 0x5a);
        }
    }
}
