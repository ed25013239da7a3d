package io.watchgate.persistence;

import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.SnapshotView;
import io.watchgate.store.StoredObject;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A snapshot: the objects live at one revision, and the retained history that led there, each event with what
 * it replaced. An object (live, or replaced) is given in full only where it is older than the history; else it
 * is the object of the history event that wrote it, named by its revision. Recovery rolls the state back through
 * the history and replays it, so reads and watches at any retained revision work after a restart as they did
 * before.
 *
 * <p>Records (laid out in {@link Records}): a header (revision, oldest retained revision, counts), the objects, the
 * events, an end record repeating the counts. Written to a temporary file, synced, renamed into place and the
 * directory synced.
 */
final class SnapshotFile {

    /** A history event from a snapshot: the entry, and what it replaced. */
    record HistoryEvent(LogEntry entry, long previousRevision, byte[] previousJson, long offset) {
    }

    /**
     * An object live at the snapshot's revision, last written at {@code revision}; its JSON is null when that
     * revision is in the snapshot's history (the event's object is the object). Offsets are where the records
     * begin in the file, for messages.
     */
    record ObjectEntry(long revision, ObjectKey key, byte[] json, long offset) {
    }

    /** What a snapshot file holds. */
    record Contents(Path file, long revision, long oldest, List<ObjectEntry> objects, List<HistoryEvent> events) {
    }

    private SnapshotFile() {
    }

    /** Writes {@code view} as {@code target}, atomically: a crash leaves the old snapshots or the new one. */
    static void write(DataDirectory directory, SnapshotView view) throws IOException {
        Path target = directory.snapshotFile(view.revision());
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        long oldest = view.events().isEmpty() ? view.revision() : view.events().get(0).revision() - 1;
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16)) {
            write(out, Records.write(data -> {
                data.writeByte(Records.SNAPSHOT_HEADER);
                data.writeLong(view.revision());
                data.writeLong(oldest);
                data.writeInt(view.objects().size());
                data.writeInt(view.events().size());
            }));
            for (StoredObject object : view.objects()) {
                // an object written within the history is that event's object: it is not written twice
                boolean full = object.revision() <= oldest;
                write(out, Records.write(data -> {
                    data.writeByte(Records.OBJECT);
                    data.writeLong(object.revision());
                    Records.key(data, object.key());
                    data.writeBoolean(full);
                    if (full) {
                        data.writeInt(object.json().length);
                        data.write(object.json());
                    }
                }));
            }
            for (ChangeEvent event : view.events()) {
                StoredObject previous = event.previous();
                boolean full = previous != null && previous.revision() <= oldest;
                write(out, Records.write(data -> {
                    data.writeByte(Records.HISTORY_EVENT);
                    byte[] entry = Records.entry(LogEntry.of(event));
                    data.writeInt(entry.length);
                    data.write(entry);
                    data.writeLong(previous == null ? 0 : previous.revision());
                    data.writeBoolean(full);
                    if (full) {
                        data.writeInt(previous.json().length);
                        data.write(previous.json());
                    }
                }));
            }
            write(out, Records.write(data -> {
                data.writeByte(Records.SNAPSHOT_END);
                data.writeInt(view.objects().size());
                data.writeInt(view.events().size());
            }));
            out.flush();
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        directory.sync();
    }

    /** Writes {@code view}, leaving no partial file behind when that fails (a full disk must not fill up more). */
    static void writeOrClean(DataDirectory directory, SnapshotView view) throws IOException {
        Path target = directory.snapshotFile(view.revision());
        try {
            write(directory, view);
        } finally {
            Files.deleteIfExists(target.resolveSibling(target.getFileName() + ".tmp"));
        }
    }

    private static void write(OutputStream out, byte[] payload) throws IOException {
        ByteBuffer record = Records.wrap(payload);
        out.write(record.array(), record.arrayOffset(), record.remaining());
    }

    /**
     * Reads a snapshot whole; any damage is a {@link StorageException} naming the file and offset. Its counts are
     * checked against the bytes the file has left, and its revisions against each other, before they are used.
     */
    static Contents read(Path file) {
        try (RecordReader reader = new RecordReader(file)) {
            try {
                return read(reader);
            } catch (IOException e) {
                throw new StorageException("the snapshot " + file + " cannot be read at offset " + reader.position()
                        + ": " + e, e);
            } catch (RuntimeException e) {
                if (e instanceof StorageException storage) {
                    throw storage;
                }
                throw damaged(reader.file(), reader.recordStart(), Records.problem(e));
            }
        } catch (IOException e) {
            throw new StorageException("the snapshot " + file + " cannot be opened: " + e, e);
        }
    }

    private static Contents read(RecordReader reader) throws IOException {
        ByteBuffer header = next(reader);
        Records.expectKind(header, Records.SNAPSHOT_HEADER);
        long revision = header.getLong();
        long oldest = header.getLong();
        int objectCount = header.getInt();
        int eventCount = header.getInt();
        if (oldest < 0 || revision < oldest || eventCount != revision - oldest) {
            throw new IllegalArgumentException("its header gives revision " + revision + ", history from " + oldest
                    + " and " + eventCount + " history events, which do not fit together");
        }
        long left = reader.size() - reader.position();
        if (objectCount < 0 || (long) objectCount * Records.MIN_OBJECT_RECORD
                + (long) eventCount * Records.MIN_HISTORY_RECORD + Records.END_RECORD > left) {
            throw new IllegalArgumentException("its header counts " + objectCount + " objects and " + eventCount
                    + " history events, more than the " + left + " bytes after it can hold");
        }
        // grown as records are read, never sized by a count: a sparse file can be as large as a count claims
        List<ObjectEntry> objects = new ArrayList<>();
        for (int i = 0; i < objectCount; i++) {
            ByteBuffer record = next(reader);
            Records.expectKind(record, Records.OBJECT);
            long objectRevision = record.getLong();
            ObjectKey key = Records.readKey(record);
            if (objectRevision <= 0 || objectRevision > revision) {
                throw new IllegalArgumentException("an object of revision " + objectRevision + " in a snapshot of "
                        + revision);
            }
            objects.add(new ObjectEntry(objectRevision, key, record.get() != 0 ? Records.bytes(record) : null,
                    reader.recordStart()));
        }
        List<HistoryEvent> events = new ArrayList<>();
        for (int i = 0; i < eventCount; i++) {
            ByteBuffer record = next(reader);
            Records.expectKind(record, Records.HISTORY_EVENT);
            LogEntry entry = Records.readEntry(ByteBuffer.wrap(Records.bytes(record)));
            if (entry.revision() != oldest + 1 + i) {
                throw new IllegalArgumentException("history event " + i + " is of revision " + entry.revision()
                        + ", not " + (oldest + 1 + i));
            }
            long previousRevision = record.getLong();
            if (previousRevision < 0 || previousRevision >= entry.revision()
                    || (entry.type() == EventType.ADDED) != (previousRevision == 0)) {
                throw new IllegalArgumentException("the " + entry.type() + " event of revision " + entry.revision()
                        + " replaced an object of revision " + previousRevision);
            }
            byte[] previousJson = record.get() != 0 ? Records.bytes(record) : null;
            events.add(new HistoryEvent(entry, previousRevision, previousJson, reader.recordStart()));
        }
        ByteBuffer end = next(reader);
        Records.expectKind(end, Records.SNAPSHOT_END);
        if (end.getInt() != objectCount || end.getInt() != eventCount) {
            throw new IllegalArgumentException("its end does not match its header");
        }
        return new Contents(reader.file(), revision, oldest, objects, events);
    }

    private static ByteBuffer next(RecordReader reader) throws IOException {
        RecordReader.Outcome outcome = reader.next();
        if (outcome == RecordReader.Outcome.RECORD) {
            return reader.payload();
        }
        throw damaged(reader.file(), reader.recordStart(),
                outcome == RecordReader.Outcome.END ? "it ends early" : reader.problem());
    }

    static StorageException damaged(Path file, long offset, String problem) {
        return new StorageException("the snapshot " + file + " is damaged at offset " + offset + ": " + problem);
    }
}
