package io.watchgate.persistence;

import io.watchgate.store.LogBackedStore;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.ReplayMismatch;
import io.watchgate.store.StoredObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot made ready to load: its state rolled back through its history to the oldest retained revision, and
 * the history's objects, all read and checked before the store is touched. So a damaged snapshot is found while
 * the store is still empty, and recovery can fall back to the one before it.
 */
final class SnapshotState {

    private final SnapshotFile.Contents snapshot;
    private final List<StoredObject> oldestState;
    private final StoredObject[] historyObjects;

    private SnapshotState(SnapshotFile.Contents snapshot, List<StoredObject> oldestState,
            StoredObject[] historyObjects) {
        this.snapshot = snapshot;
        this.oldestState = oldestState;
        this.historyObjects = historyObjects;
    }

    /** Reads and checks the snapshot {@code file}; any damage is a {@link StorageException} naming file and offset. */
    static SnapshotState read(DataDirectory.Snapshot file, StoredJson json) {
        SnapshotFile.Contents snapshot = SnapshotFile.read(file.file());
        if (snapshot.revision() != file.revision()) {
            throw SnapshotFile.damaged(file.file(), 0, "it holds revision " + snapshot.revision()
                    + ", not the one its name gives");
        }
        List<SnapshotFile.HistoryEvent> events = snapshot.events();
        StoredObject[] objects = new StoredObject[events.size()];
        for (int i = 0; i < events.size(); i++) {
            LogEntry entry = events.get(i).entry();
            objects[i] = json.stored(entry.key(), entry.json(), entry.revision(), where(snapshot, events.get(i)
                    .offset()));
        }
        Map<ObjectKey, StoredObject> state = new HashMap<>(snapshot.objects().size() * 2);
        for (SnapshotFile.ObjectEntry object : snapshot.objects()) {
            String where = where(snapshot, object.offset());
            state.put(object.key(), object.json() != null
                    ? json.stored(object.key(), object.json(), object.revision(), where)
                    : historyObject(objects, snapshot, object.revision(), object.key(), object.offset()));
        }
        for (int i = events.size() - 1; i >= 0; i--) {
            SnapshotFile.HistoryEvent event = events.get(i);
            ObjectKey key = event.entry().key();
            if (event.previousRevision() == 0) {
                state.remove(key);
            } else if (event.previousJson() != null) {
                state.put(key, json.stored(key, event.previousJson(), event.previousRevision(),
                        where(snapshot, event.offset())));
            } else {
                state.put(key, historyObject(objects, snapshot, event.previousRevision(), key, event.offset()));
            }
        }
        return new SnapshotState(snapshot, state.values().stream()
                .sorted((a, b) -> a.key().compareTo(b.key())).toList(), objects);
    }

    long revision() {
        return snapshot.revision();
    }

    /** Loads the state at the oldest retained revision into {@code store}, which must be new, then the history. */
    void loadInto(LogBackedStore store) {
        store.restore(snapshot.oldest(), oldestState);
        List<SnapshotFile.HistoryEvent> events = snapshot.events();
        for (int i = 0; i < events.size(); i++) {
            LogEntry entry = events.get(i).entry();
            try {
                store.replay(entry.revision(), entry.type(), historyObjects[i], entry.committedAtMillis());
            } catch (ReplayMismatch e) {
                throw SnapshotFile.damaged(snapshot.file(), events.get(i).offset(), "its history holds "
                        + e.getMessage());
            }
        }
    }

    private static String where(SnapshotFile.Contents snapshot, long offset) {
        return "the snapshot " + snapshot.file() + " at offset " + offset;
    }

    /** The object the history event at {@code revision} wrote to {@code key}. */
    private static StoredObject historyObject(StoredObject[] objects, SnapshotFile.Contents snapshot, long revision,
            ObjectKey key, long offset) {
        long at = revision - snapshot.oldest() - 1;
        if (at < 0 || at >= objects.length || !objects[(int) at].key().equals(key)) {
            throw SnapshotFile.damaged(snapshot.file(), offset, "it names revision " + revision + " for " + key
                    + ", which its history does not hold");
        }
        return objects[(int) at];
    }
}
