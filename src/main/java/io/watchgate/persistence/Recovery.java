package io.watchgate.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.EventType;
import io.watchgate.store.LogBackedStore;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Rebuilds the store from the data directory: the newest snapshot's state, rolled back through its history and
 * replayed (so that the retained history and older revisions come back too), then every log entry after it.
 * A torn last write is cut off; any other damage stops the start with the file and offset that are wrong.
 */
final class Recovery {

    private static final Logger LOG = Logger.getLogger(Recovery.class);

    /**
     * What recovery found: the newest revision, and how much it read.
     *
     * @param logBytes the bytes of log replayed: logged since the snapshot, counting towards the next one
     */
    record Result(long revision, long snapshotRevision, long logEntries, long logBytes, long droppedBytes) {
    }

    private final DataDirectory directory;
    private final ObjectMapper mapper;

    Recovery(DataDirectory directory, ObjectMapper mapper) {
        this.directory = directory;
        this.mapper = mapper;
    }

    /** Fills {@code store}, which must be new, from the directory. */
    Result recover(LogBackedStore store) throws IOException {
        List<DataDirectory.Snapshot> snapshots = directory.snapshots();
        long snapshotRevision = 0;
        if (!snapshots.isEmpty()) {
            DataDirectory.Snapshot newest = snapshots.get(snapshots.size() - 1);
            restoreSnapshot(store, SnapshotFile.read(newest.file()));
            snapshotRevision = newest.revision();
        } else {
            store.restore(0, List.of());
        }
        long entries = 0;
        long bytes = 0;
        long dropped = 0;
        List<DataDirectory.Segment> segments = directory.segments();
        for (int i = 0; i < segments.size(); i++) {
            DataDirectory.Segment segment = segments.get(i);
            boolean last = i == segments.size() - 1;
            if (!last && segments.get(i + 1).firstRevision() <= snapshotRevision + 1) {
                continue; // wholly covered by the snapshot: only a crash kept it from being deleted
            }
            try (RecordReader reader = new RecordReader(segment.file())) {
                while (true) {
                    RecordReader.Outcome outcome = reader.next();
                    if (outcome == RecordReader.Outcome.END) {
                        break;
                    }
                    if (outcome == RecordReader.Outcome.DAMAGED) {
                        if (!last || !reader.damageRunsToEnd()) {
                            throw new StorageException("the log segment " + segment.file() + " is damaged at offset "
                                    + reader.recordStart() + " (" + reader.problem() + ") with more log after it; "
                                    + "refusing to start rather than lose acknowledged writes");
                        }
                        dropped = reader.size() - reader.recordStart();
                        cutTornTail(segment, reader.recordStart(), dropped, reader.problem());
                        break;
                    }
                    LogEntry entry = readEntry(reader);
                    if (entry.revision() <= snapshotRevision) {
                        continue; // in the snapshot already
                    }
                    if (entry.revision() != store.currentRevision() + 1) {
                        throw new StorageException("the log segment " + segment.file() + " jumps from revision "
                                + store.currentRevision() + " to " + entry.revision() + " at offset "
                                + reader.recordStart() + ": entries are missing; refusing to start");
                    }
                    store.replay(entry.revision(), entry.type(), stored(entry.key(), entry.json(), entry.revision(),
                            segment.file() + " at offset " + reader.recordStart()), entry.committedAtMillis());
                    entries++;
                    bytes += Records.HEADER + reader.payload().capacity();
                }
            }
        }
        return new Result(store.currentRevision(), snapshotRevision, entries, bytes, dropped);
    }

    private static LogEntry readEntry(RecordReader reader) {
        try {
            return Records.readEntry(reader.payload());
        } catch (RuntimeException e) {
            throw new StorageException("the log segment " + reader.file() + " holds an unreadable entry at offset "
                    + reader.recordStart() + " (" + e.getMessage() + "); refusing to start", e);
        }
    }

    private void cutTornTail(DataDirectory.Segment segment, long at, long bytes, String problem) throws IOException {
        LOG.warnf("the log segment %s ends in a torn write (%s): dropping its last %d bytes, from offset %d; "
                + "that write was never acknowledged", segment.file(), problem, bytes, at);
        try (FileChannel channel = FileChannel.open(segment.file(), StandardOpenOption.WRITE)) {
            channel.truncate(at);
            channel.force(true);
        }
    }

    /** The snapshot's state, rolled back through its history to the oldest retained revision, then replayed. */
    private void restoreSnapshot(LogBackedStore store, SnapshotFile.Contents snapshot) {
        String where = "the snapshot of revision " + snapshot.revision();
        List<SnapshotFile.HistoryEvent> events = snapshot.events();
        StoredObject[] objects = new StoredObject[events.size()];
        for (int i = 0; i < events.size(); i++) {
            LogEntry entry = events.get(i).entry();
            objects[i] = stored(entry.key(), entry.json(), entry.revision(), where);
        }
        Map<ObjectKey, StoredObject> state = new HashMap<>(snapshot.objects().size() * 2);
        for (SnapshotFile.ObjectEntry object : snapshot.objects()) {
            state.put(object.key(), object.json() != null
                    ? stored(object.key(), object.json(), object.revision(), where)
                    : historyObject(objects, snapshot, object.revision(), object.key(), where));
        }
        for (int i = events.size() - 1; i >= 0; i--) {
            SnapshotFile.HistoryEvent event = events.get(i);
            ObjectKey key = event.entry().key();
            if (event.previousRevision() == 0) {
                state.remove(key);
            } else if (event.previousJson() != null) {
                state.put(key, stored(key, event.previousJson(), event.previousRevision(), where));
            } else {
                state.put(key, historyObject(objects, snapshot, event.previousRevision(), key, where));
            }
        }
        store.restore(snapshot.oldest(), state.values().stream()
                .sorted((a, b) -> a.key().compareTo(b.key())).toList());
        for (int i = 0; i < events.size(); i++) {
            LogEntry entry = events.get(i).entry();
            store.replay(entry.revision(), entry.type(), objects[i], entry.committedAtMillis());
        }
    }

    /** The object the history event at {@code revision} wrote to {@code key}. */
    private static StoredObject historyObject(StoredObject[] objects, SnapshotFile.Contents snapshot, long revision,
            ObjectKey key, String where) {
        long at = revision - snapshot.oldest() - 1;
        if (at < 0 || at >= objects.length || !objects[(int) at].key().equals(key)) {
            throw new StorageException(where + " is inconsistent: it names revision " + revision + " for " + key
                    + ", which its history does not hold");
        }
        return objects[(int) at];
    }

    private StoredObject stored(ObjectKey key, byte[] json, long revision, String where) {
        try {
            JsonNode tree = mapper.readTree(json);
            if (!(tree instanceof ObjectNode object)) {
                throw new IOException("not a JSON object");
            }
            return new StoredObject(key, object, json, revision);
        } catch (IOException e) {
            throw new StorageException(where + " holds an object that is not JSON (" + key + "): " + e.getMessage(), e);
        }
    }
}
