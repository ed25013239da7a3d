package io.watchgate.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.store.LogBackedStore;
import io.watchgate.store.ReplayMismatch;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Rebuilds the store from the data directory: the newest snapshot's state, rolled back through its history and
 * replayed (so that the retained history and older revisions come back too), then every log entry after it.
 * A damaged newest snapshot is replaced by the one before it and the log since it, which are kept for that. A torn
 * last write is cut off; any other damage stops the start with the file and offset that are wrong.
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

    /** A snapshot that could not be read, and why. */
    private record Damaged(DataDirectory.Snapshot snapshot, StorageException problem) {
    }

    /** The snapshot to start from (null: the log from its first revision), and the newer ones that are damaged. */
    private record Start(SnapshotState snapshot, List<Damaged> damaged) {
        long revision() {
            return snapshot == null ? 0 : snapshot.revision();
        }
    }

    private final DataDirectory directory;
    private final StoredJson json;

    Recovery(DataDirectory directory, ObjectMapper mapper) {
        this.directory = directory;
        this.json = new StoredJson(mapper);
    }

    /** Fills {@code store}, which must be new, from the directory. */
    Result recover(LogBackedStore store) throws IOException {
        List<DataDirectory.Segment> segments = directory.segments();
        Start start = start(segments);
        if (start.snapshot() != null) {
            start.snapshot().loadInto(store);
        } else {
            store.restore(0, List.of());
        }
        long snapshotRevision = start.revision();
        long entries = 0;
        long bytes = 0;
        long dropped = 0;
        for (int i = 0; i < segments.size(); i++) {
            DataDirectory.Segment segment = segments.get(i);
            boolean last = i == segments.size() - 1;
            if (!last && segments.get(i + 1).firstRevision() <= snapshotRevision + 1) {
                continue; // wholly covered by the snapshot: kept for the one before it, or a crash kept it
            }
            try (RecordReader reader = new RecordReader(segment.file())) {
                while (true) {
                    RecordReader.Outcome outcome = reader.next();
                    if (outcome == RecordReader.Outcome.END) {
                        break;
                    }
                    if (outcome == RecordReader.Outcome.DAMAGED) {
                        String notTorn = last ? reader.whyNotTorn() : "a newer segment follows it";
                        if (notTorn != null) {
                            throw new StorageException("the log segment " + segment.file() + " is damaged at offset "
                                    + reader.recordStart() + " (" + reader.problem() + "), and it is not a torn last "
                                    + "write: " + notTorn + "; refusing to start rather than lose acknowledged "
                                    + "writes");
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
                    String where = "the log segment " + segment.file() + " at offset " + reader.recordStart();
                    try {
                        store.replay(entry.revision(), entry.type(),
                                json.stored(entry.key(), entry.json(), entry.revision(), where),
                                entry.committedAtMillis());
                    } catch (ReplayMismatch e) {
                        throw new StorageException(where + " holds " + e.getMessage() + "; refusing to start", e);
                    }
                    entries++;
                    bytes += Records.HEADER + reader.payload().capacity();
                }
            }
        }
        setAside(start.damaged());
        return new Result(store.currentRevision(), snapshotRevision, entries, bytes, dropped);
    }

    /**
     * The newest snapshot that reads whole. A damaged one is replaced by the one before it only where the log
     * since that one is kept, so that no acknowledged write is lost (or by the log alone, where it is kept from
     * the first revision); else the start stops, saying what is damaged and what can be done.
     */
    private Start start(List<DataDirectory.Segment> segments) throws IOException {
        List<DataDirectory.Snapshot> snapshots = directory.snapshots();
        List<Damaged> damaged = new ArrayList<>();
        for (int i = snapshots.size() - 1; i >= 0; i--) {
            DataDirectory.Snapshot snapshot = snapshots.get(i);
            if (!damaged.isEmpty() && !logKeptAfter(segments, snapshot.revision())) {
                break;
            }
            try {
                SnapshotState state = SnapshotState.read(snapshot, json);
                fellBack(damaged, "the snapshot " + snapshot.file() + " and the log after it");
                return new Start(state, damaged);
            } catch (StorageException e) {
                damaged.add(new Damaged(snapshot, e));
            }
        }
        if (damaged.isEmpty() || logKeptAfter(segments, 0)) {
            fellBack(damaged, "the log, kept from its first revision");
            return new Start(null, damaged);
        }
        throw nothingReplaces(damaged, segments);
    }

    /** Whether the log holds every revision after {@code revision}: its oldest segment begins no later. */
    private static boolean logKeptAfter(List<DataDirectory.Segment> segments, long revision) {
        return !segments.isEmpty() && segments.get(0).firstRevision() <= revision + 1;
    }

    private static void fellBack(List<Damaged> damaged, String instead) {
        for (Damaged snapshot : damaged) {
            LOG.errorf("%s; recovering instead from %s, where every acknowledged write is. It is set aside as "
                    + "%s.damaged: delete it once it is no longer wanted", snapshot.problem().getMessage(), instead,
                    snapshot.snapshot().file().getFileName());
        }
    }

    private StorageException nothingReplaces(List<Damaged> damaged, List<DataDirectory.Segment> segments) {
        StringBuilder message = new StringBuilder();
        for (Damaged snapshot : damaged) {
            message.append(snapshot.problem().getMessage()).append("; ");
        }
        boolean one = damaged.size() == 1;
        message.append(segments.isEmpty() ? "no log is kept" : "the log kept begins at revision "
                + segments.get(0).firstRevision()).append(", and no older snapshot is kept that the log follows on "
                + "from, so nothing kept can replace ").append(one ? "it" : "them")
                .append(". Refusing to start rather than lose what ").append(one ? "it holds" : "they hold")
                .append(". Restore ").append(damaged.get(0).snapshot().file().getFileName())
                .append(" (or the whole data directory) from a backup; or, to start empty and lose every object, move "
                        + "every snapshot-*.snap and wal-*.log file out of ").append(directory.path());
        return new StorageException(message.toString(), damaged.get(0).problem());
    }

    /** Renames damaged snapshots out of the way, so that they are neither read again nor counted as kept. */
    private void setAside(List<Damaged> damaged) throws IOException {
        for (Damaged snapshot : damaged) {
            Path file = snapshot.snapshot().file();
            Files.move(file, file.resolveSibling(file.getFileName() + ".damaged"),
                    StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        if (!damaged.isEmpty()) {
            directory.sync();
        }
    }

    private static LogEntry readEntry(RecordReader reader) {
        try {
            return Records.readEntry(reader.payload());
        } catch (RuntimeException e) {
            throw new StorageException("the log segment " + reader.file() + " holds an unreadable entry at offset "
                    + reader.recordStart() + " (" + Records.problem(e) + "); refusing to start", e);
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
}
