package io.watchgate.persistence;

import static io.watchgate.persistence.DurableStorageTest.describe;
import static io.watchgate.persistence.DurableStorageTest.state;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Store;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an older release wrote still reads: the data directories in {@code persistence/format-1} were written by
 * the code of commit a068ffe (see the README there) and are never regenerated. Recovery must give back exactly the
 * objects, revisions, commit times and event types written then.
 */
class LegacyDataDirectoryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long FIRST_COMMIT = 1_767_225_600_001L;

    @TempDir
    Path dir;

    private DurableStorage storage;

    @AfterEach
    void close() throws IOException {
        if (storage != null) {
            storage.close();
        }
    }

    private Store recover(String name) throws IOException, URISyntaxException {
        Path source = Path.of(getClass().getResource("/persistence/format-1/" + name).toURI());
        try (var files = Files.list(source)) {
            for (Path file : files.toList()) {
                Files.copy(file, dir.resolve(file.getFileName()));
            }
        }
        MemoryStore store = new MemoryStore(JSON, 1000, Long.MAX_VALUE, Clock.systemUTC());
        storage = DurableStorage.open(new DurableSettings(dir.toString(), false, 1 << 20, 1L << 40), store, JSON);
        return store;
    }

    private static String json(String name, long revision, String value) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"default\",\"resourceVersion\":\"" + revision + "\"},\"data\":{\"value\":\""
                + value + "\"}}";
    }

    /** An event as "revision TYPE json after previous-json at millis". */
    private static String event(long revision, String type, String object, String previous) {
        return revision + " " + type + " " + object + " after " + previous + " at "
                + (FIRST_COMMIT + (revision - 1) * 1000);
    }

    private static final List<String> EVENTS = List.of(
            event(1, "ADDED", json("a", 1, "a1"), "nothing"),
            event(2, "ADDED", json("b", 2, "b1"), "nothing"),
            event(3, "MODIFIED", json("a", 3, "a2"), json("a", 1, "a1")),
            event(4, "DELETED", json("b", 4, "b1"), json("b", 2, "b1")),
            event(5, "ADDED", json("c", 5, "c1"), "nothing"),
            event(6, "MODIFIED", json("c", 6, "c2"), json("c", 5, "c1")),
            event(7, "DELETED", json("a", 7, "a2"), json("a", 3, "a2")));

    @Test
    void aLogWrittenByAnOlderReleaseReplaysEveryEventAsItWasWritten() throws Exception {
        Store store = recover("log-only");
        assertEquals(7, store.currentRevision());
        assertEquals(0, store.oldestRevision());
        assertEquals(EVENTS, describe(store.eventsAfter(0)));
        assertEquals(List.of("1 " + json("a", 1, "a1"), "2 " + json("b", 2, "b1")), state(store, 2));
        assertEquals(List.of("3 " + json("a", 3, "a2")), state(store, 4));
        assertEquals(List.of("6 " + json("c", 6, "c2")), state(store, 7));
        assertEquals(7, storage.recovered().logEntries());
        assertEquals(0, storage.recovered().droppedBytes());
    }

    @Test
    void aSnapshotAndLogWrittenByAnOlderReleaseRecoverTheRetainedHistoryAndTheState() throws Exception {
        Store store = recover("snapshot-and-log");
        assertEquals(4, storage.recovered().snapshotRevision());
        assertEquals(3, storage.recovered().logEntries(), "revisions 5 to 7 from the log");
        assertEquals(7, store.currentRevision());
        assertEquals(2, store.oldestRevision(), "compacted to 2 before the snapshot");
        assertEquals(EVENTS.subList(2, 7), describe(store.eventsAfter(2)));
        assertEquals(List.of("1 " + json("a", 1, "a1"), "2 " + json("b", 2, "b1")), state(store, 2));
        assertEquals(List.of("3 " + json("a", 3, "a2")), state(store, 4));
        assertEquals(List.of("6 " + json("c", 6, "c2")), state(store, 7));
    }
}
