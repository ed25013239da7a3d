package io.watchgate.persistence;

import static io.watchgate.persistence.DurableStorageTest.describe;
import static io.watchgate.persistence.DurableStorageTest.flipByteAt;
import static io.watchgate.persistence.DurableStorageTest.newStore;
import static io.watchgate.persistence.DurableStorageTest.state;
import static io.watchgate.persistence.DurableStorageTest.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.store.MemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged newest snapshot loses no acknowledged write: the snapshot before it and the log since it are kept for
 * that, and recovery falls back to them. Where nothing kept can replace it, the start stops and says what to do.
 */
class SnapshotFallbackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HISTORY = 50;

    @TempDir
    Path dir;

    private final List<DurableStorage> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws IOException {
        for (DurableStorage storage : opened) {
            storage.close();
        }
    }

    /** Small segments, so that the log the retention drops is whole segments; snapshots only when asked. */
    private MemoryStore open() {
        MemoryStore store = newStore(HISTORY);
        opened.add(DurableStorage.open(new DurableSettings(dir.toString(), false, 4096, 1L << 40), store, JSON));
        return store;
    }

    private DurableStorage storage() {
        return opened.get(opened.size() - 1);
    }

    private void stop() throws IOException {
        opened.remove(opened.size() - 1).close();
    }

    /** The same rounds of writes as {@link #writeWithSnapshots}, without a disk: what recovery must give back. */
    private static MemoryStore reference(int rounds) {
        MemoryStore reference = newStore(HISTORY);
        for (int round = 0; round < rounds; round++) {
            workload(reference, 100, round);
        }
        return reference;
    }

    /** Rounds of 100 writes, a snapshot after each but the last; stopped. */
    private void writeWithSnapshots(int rounds) throws IOException {
        MemoryStore store = open();
        for (int round = 0; round < rounds; round++) {
            workload(store, 100, round);
            if (round < rounds - 1) {
                storage().snapshot();
            }
        }
        stop();
    }

    /** The snapshots in the directory, oldest first (read without its lock, which a running store holds). */
    private List<DataDirectory.Snapshot> snapshots() throws IOException {
        List<DataDirectory.Snapshot> snapshots = new ArrayList<>();
        for (Path file : files("snapshot-", ".snap")) {
            snapshots.add(new DataDirectory.Snapshot(file, revisionIn(file)));
        }
        return snapshots;
    }

    /** The log segments in the directory, oldest first. */
    private List<DataDirectory.Segment> segments() throws IOException {
        List<DataDirectory.Segment> segments = new ArrayList<>();
        for (Path file : files("wal-", ".log")) {
            segments.add(new DataDirectory.Segment(file, revisionIn(file)));
        }
        return segments;
    }

    private List<Path> files(String prefix, String suffix) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)
                    && f.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    private static long revisionIn(Path file) {
        return Long.parseLong(file.getFileName().toString().replaceAll("\\D", ""));
    }

    private static void assertRecoveredAsWritten(MemoryStore reference, MemoryStore recovered) {
        assertEquals(reference.currentRevision(), recovered.currentRevision(), "every acknowledged write");
        assertEquals(reference.oldestRevision(), recovered.oldestRevision());
        assertEquals(describe(reference.eventsAfter(reference.oldestRevision())),
                describe(recovered.eventsAfter(recovered.oldestRevision())));
        for (long revision = reference.oldestRevision(); revision <= reference.currentRevision(); revision += 5) {
            assertEquals(state(reference, revision), state(recovered, revision), "the state at " + revision);
        }
    }

    @Test
    void theNewestTwoSnapshotsAreKeptWithTheLogSinceTheOlderAndNothingOlder() throws Exception {
        writeWithSnapshots(4); // snapshots at 100, 200 and 300
        assertEquals(List.of(200L, 300L), snapshots().stream().map(DataDirectory.Snapshot::revision).toList());
        List<DataDirectory.Segment> segments = segments();
        assertTrue(segments.get(0).firstRevision() <= 201, "the log since the older snapshot is kept: " + segments);
        assertTrue(segments.get(1).firstRevision() > 201, "and no segment wholly before it: " + segments);
    }

    @Test
    void aDamagedNewestSnapshotIsReplacedByTheOneBeforeItAndTheLogSinceIt() throws Exception {
        writeWithSnapshots(3); // snapshots at 100 and 200, then 100 more writes
        assertTrue(segments().get(0).firstRevision() > 1, "the log before the older snapshot is gone");
        Path newest = snapshots().get(1).file();
        flipByteAt(newest, Files.size(newest) / 2);

        MemoryStore recovered = open();
        assertRecoveredAsWritten(reference(3), recovered);
        assertEquals(100, storage().recovered().snapshotRevision(), "recovered from the snapshot before it");
        assertFalse(Files.exists(newest), "the damaged snapshot is not read again");
        assertTrue(Files.exists(newest.resolveSibling(newest.getFileName() + ".damaged")), "but set aside, kept");
        // and the next snapshot keeps what a damaged one would need again
        storage().snapshot();
        assertEquals(List.of(100L, 300L), snapshots().stream().map(DataDirectory.Snapshot::revision).toList());
    }

    @Test
    void aDamagedOnlySnapshotIsReplacedByTheLogKeptFromTheFirstRevision() throws Exception {
        writeWithSnapshots(2); // one snapshot, at 100: the log is kept from revision 1
        Path only = snapshots().get(0).file();
        flipByteAt(only, Files.size(only) / 2);

        MemoryStore recovered = open();
        assertRecoveredAsWritten(reference(2), recovered);
        assertEquals(0, storage().recovered().snapshotRevision());
        assertTrue(Files.exists(only.resolveSibling(only.getFileName() + ".damaged")));
    }

    @Test
    void aDamagedSnapshotNothingKeptCanReplaceStopsTheStartSayingWhatToDo() throws Exception {
        writeWithSnapshots(2);
        // as an older release left it: one snapshot, and the log only after it
        for (DataDirectory.Segment segment : segments()) {
            if (segment.firstRevision() <= 100) {
                Files.delete(segment.file());
            }
        }
        long firstKept = segments().get(0).firstRevision();
        Path only = snapshots().get(0).file();
        long damagedAt = Files.size(only) / 2;
        flipByteAt(only, damagedAt);

        StorageException e = assertThrows(StorageException.class, this::open);
        String message = e.getMessage();
        assertTrue(message.contains("the snapshot " + only + " is damaged at offset "), message);
        assertTrue(message.contains("the log kept begins at revision " + firstKept), message);
        assertTrue(message.contains("Restore " + only.getFileName() + " (or the whole data directory) from a backup"),
                message);
        assertTrue(message.contains("to start empty and lose every object, move every snapshot-*.snap and wal-*.log "
                + "file out of " + dir.toAbsolutePath()), message);
        assertTrue(Files.exists(only), "a start that failed changes nothing");
    }

    @Test
    void whenBothKeptSnapshotsAreDamagedBothAreNamed() throws Exception {
        writeWithSnapshots(3);
        List<DataDirectory.Snapshot> snapshots = snapshots();
        for (DataDirectory.Snapshot snapshot : snapshots) {
            flipByteAt(snapshot.file(), Files.size(snapshot.file()) / 2);
        }
        StorageException e = assertThrows(StorageException.class, this::open);
        for (DataDirectory.Snapshot snapshot : snapshots) {
            assertTrue(e.getMessage().contains("the snapshot " + snapshot.file() + " is damaged at offset "),
                    e.getMessage());
        }
    }
}
