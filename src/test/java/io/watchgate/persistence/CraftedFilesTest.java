package io.watchgate.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.store.Commits;
import io.watchgate.store.EventType;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files in the data directory are input too: what someone who can write the directory (or a failing disk) puts
 * there is read as damage, reported with the file and the offset, and never obeyed. A length or a count larger
 * than the file can hold allocates nothing; a torn tail of the newest segment is still told from damage inside.
 */
class CraftedFilesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<DurableStorage> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws IOException {
        for (DurableStorage storage : opened) {
            storage.close();
        }
    }

    private MemoryStore open() {
        MemoryStore store = new MemoryStore(JSON, 1000, Long.MAX_VALUE, Clock.systemUTC());
        opened.add(DurableStorage.open(new DurableSettings(dir.toString(), false, 64 << 20, 1L << 40), store, JSON));
        return store;
    }

    private void stop() throws IOException {
        opened.remove(opened.size() - 1).close();
    }

    /** A data directory whose log holds {@code writes} creates, stopped; returns its one segment. */
    private Path logOf(int writes) throws IOException {
        MemoryStore store = open();
        for (int i = 1; i <= writes; i++) {
            Commits.commit(store, Mutation.create(new ObjectKey("configmaps", "default", "cm-" + i),
                    JSON.createObjectNode().put("kind", "ConfigMap").put("i", i)));
        }
        stop();
        return dir.resolve(String.format("wal-%020d.log", 1));
    }

    private static ByteBuffer header(int length, int checksum) {
        return ByteBuffer.allocate(Records.HEADER).putInt(length).putInt(checksum).flip();
    }

    private static void append(Path file, ByteBuffer bytes) throws IOException {
        Files.write(file, bytes.array(), StandardOpenOption.APPEND);
    }

    /** The offset where the {@code index}th record (from 0) of a file of whole records begins. */
    private static long recordOffset(Path file, int index) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
        int at = 0;
        for (int i = 0; i < index; i++) {
            at += Records.HEADER + bytes.getInt(at);
        }
        return at;
    }

    private static void overwrite(Path file, long offset, ByteBuffer bytes) throws IOException {
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(offset);
            raw.write(bytes.array(), bytes.position(), bytes.remaining());
        }
    }

    private static void assertNames(StorageException e, Path file, long offset) {
        assertTrue(e.getMessage().contains(file.toString()), "names the file: " + e.getMessage());
        assertTrue(e.getMessage().contains("offset " + offset), "names the offset " + offset + ": " + e.getMessage());
    }

    @Test
    void aRecordLengthOfTwoToTheThirtyFirstMinusOneInTheMiddleOfTheLogIsDamageNotAnAllocation() throws Exception {
        Path segment = logOf(5);
        long third = recordOffset(segment, 2);
        overwrite(segment, third, header(Integer.MAX_VALUE, 0));
        StorageException e = assertThrows(StorageException.class, this::open);
        assertNames(e, segment, third);
        assertTrue(e.getMessage().contains("impossible record length " + Integer.MAX_VALUE), e.getMessage());
        assertTrue(e.getMessage().contains("a whole entry follows it at offset"), e.getMessage());
    }

    @Test
    void aHugeRecordLengthAtTheTailOfTheNewestSegmentIsATornWrite() throws Exception {
        Path segment = logOf(5);
        long intact = Files.size(segment);
        append(segment, header(Integer.MAX_VALUE, 12345));
        append(segment, ByteBuffer.wrap(new byte[] {1, 0, 0}));
        MemoryStore recovered = open();
        assertEquals(5, recovered.currentRevision());
        assertEquals(Records.HEADER + 3, opened.get(0).recovered().droppedBytes());
        assertEquals(intact, Files.size(segment));
    }

    @Test
    void aLengthPastTheEndAtTheTailIsATornWriteButInTheMiddleItStopsTheStart() throws Exception {
        Path segment = logOf(5);
        long intact = Files.size(segment);
        // a record of 1,000 bytes of which 20 reached the disk
        append(segment, header(1000, 0));
        append(segment, ByteBuffer.wrap(new byte[20]));
        assertEquals(5, open().currentRevision(), "the tail was a write cut short");
        stop();
        assertEquals(intact, Files.size(segment));

        // the second record's length now runs 8 bytes past the end, over the whole entries after it
        long second = recordOffset(segment, 1);
        overwrite(segment, second, header((int) (intact - second), 0));
        StorageException e = assertThrows(StorageException.class, this::open);
        assertNames(e, segment, second);
        assertTrue(e.getMessage().contains("cut short"), e.getMessage());
        assertTrue(e.getMessage().contains("a whole entry follows it"), e.getMessage());
    }

    @Test
    void damageInAnOlderSegmentStopsTheStartEvenAtItsEnd() throws Exception {
        Path segment = logOf(5);
        append(segment, header(1000, 0)); // a torn write would be in the newest segment, never in this one
        Path newer = dir.resolve(String.format("wal-%020d.log", 6));
        Files.write(newer, Records.wrap(Records.entry(new LogEntry(6, 0, EventType.ADDED,
                new ObjectKey("configmaps", "default", "six"), "{}".getBytes(StandardCharsets.UTF_8)))).array());
        StorageException e = assertThrows(StorageException.class, this::open);
        assertNames(e, segment, Files.size(segment) - Records.HEADER);
        assertTrue(e.getMessage().contains("a newer segment follows it"), e.getMessage());
    }

    @Test
    void aLogEntryThatCannotHaveHappenedStopsTheStartNamingIt() throws Exception {
        Path segment = logOf(2);
        long offset = Files.size(segment);
        // whole and checksummed, but cm-9 was never created: taken in, it would skew counts and history
        append(segment, Records.wrap(Records.entry(new LogEntry(3, 0, EventType.DELETED,
                new ObjectKey("configmaps", "default", "cm-9"), "{}".getBytes(StandardCharsets.UTF_8)))));
        StorageException e = assertThrows(StorageException.class, this::open);
        assertNames(e, segment, offset);
        assertTrue(e.getMessage().contains("DELETED of configmaps/default/cm-9, which does not exist"),
                e.getMessage());

        Files.delete(segment);
        segment = logOf(2);
        offset = Files.size(segment);
        append(segment, Records.wrap(Records.entry(new LogEntry(3, 0, EventType.ADDED,
                new ObjectKey("configmaps", "default", "cm-1"), "{}".getBytes(StandardCharsets.UTF_8)))));
        e = assertThrows(StorageException.class, this::open);
        assertNames(e, segment, offset);
        assertTrue(e.getMessage().contains("ADDED of configmaps/default/cm-1, which exists already"), e.getMessage());
    }

    @Test
    void aZeroFilledTailLongerThanAnyWriteIsNotTakenForOne() throws Exception {
        Path segment = logOf(5);
        long intact = Files.size(segment);
        try (RandomAccessFile raw = new RandomAccessFile(segment.toFile(), "rw")) {
            raw.setLength(intact + RecordReader.TORN_WRITE_MAX + 1); // sparse: zeros that take no space
        }
        StorageException e = assertThrows(StorageException.class, this::open);
        assertNames(e, segment, intact);
        assertTrue(e.getMessage().contains("more than one write can span"), e.getMessage());
    }

    @Test
    void aTailLaidOutAsManyLongEntriesIsCheckedWithinABoundedNumberOfChecksummedBytes() throws Exception {
        Path segment = logOf(5);
        long intact = Files.size(segment);
        // every 64 bytes the start of an entry-shaped record that runs to the end of the file, checksum wrong:
        // looking for a whole one among them would checksum ~2 TiB without a bound
        int tail = 16 << 20;
        ByteBuffer bytes = ByteBuffer.allocate(tail);
        for (int at = 0; at + 64 <= tail; at += 64) {
            int length = tail - at - Records.HEADER;
            bytes.putInt(at, length).putInt(at + 4, 0).put(at + 8, Records.ENTRY);
            bytes.putInt(at + 8 + Records.MIN_ENTRY - 4, length - Records.MIN_ENTRY);
        }
        append(segment, bytes);
        StorageException e = assertThrows(StorageException.class, this::open);
        assertNames(e, segment, intact);
        assertTrue(e.getMessage().contains("could not all be checked"), e.getMessage());
    }

    /** A snapshot file of these records. */
    private Path snapshot(long revision, byte[]... payloads) throws IOException {
        Path file = dir.resolve(String.format("snapshot-%020d.snap", revision));
        for (byte[] payload : payloads) {
            Files.write(file, Records.wrap(payload).array(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        return file;
    }

    private static byte[] snapshotHeader(long revision, long oldest, int objects, int events) {
        return Records.write(out -> {
            out.writeByte(Records.SNAPSHOT_HEADER);
            out.writeLong(revision);
            out.writeLong(oldest);
            out.writeInt(objects);
            out.writeInt(events);
        });
    }

    private static byte[] object(long revision, String name, byte[] json) {
        return Records.write(out -> {
            out.writeByte(Records.OBJECT);
            out.writeLong(revision);
            Records.key(out, new ObjectKey("configmaps", "default", name));
            out.writeBoolean(true);
            out.writeInt(json.length);
            out.write(json);
        });
    }

    @Test
    void aSnapshotHeaderCountingMoreObjectsThanTheFileHoldsIsDamageNotAnAllocation() throws Exception {
        for (int count : new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 2}) {
            Path file = snapshot(5, snapshotHeader(5, 5, count, 0),
                    object(3, "a", "{}".getBytes(StandardCharsets.UTF_8)));
            StorageException e = assertThrows(StorageException.class, () -> SnapshotFile.read(file));
            assertNames(e, file, 0);
            assertTrue(e.getMessage().contains("counts " + count + " objects"), e.getMessage());
            Files.delete(file);
        }
    }

    @Test
    void aSnapshotHeaderCountingMoreEventsThanTheFileHoldsIsDamage() throws Exception {
        Path file = snapshot(1L << 40, snapshotHeader(1L << 40, (1L << 40) - Integer.MAX_VALUE, 0, Integer.MAX_VALUE));
        StorageException e = assertThrows(StorageException.class, () -> SnapshotFile.read(file));
        assertNames(e, file, 0);
        assertTrue(e.getMessage().contains("more than the 0 bytes after it can hold"), e.getMessage());

        Path inconsistent = snapshot(9, snapshotHeader(9, 2, 0, 3));
        e = assertThrows(StorageException.class, () -> SnapshotFile.read(inconsistent));
        assertNames(e, inconsistent, 0);
        assertTrue(e.getMessage().contains("do not fit together"), e.getMessage());
    }

    @Test
    void aHugeCountInASparseFileAsLargeAsItClaimsAllocatesNothingForIt() throws Exception {
        Path file = snapshot(5, snapshotHeader(5, 5, Integer.MAX_VALUE, 0));
        long header = Files.size(file);
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.setLength((long) Integer.MAX_VALUE * Records.MIN_OBJECT_RECORD + header + Records.END_RECORD);
        }
        StorageException e = assertThrows(StorageException.class, () -> SnapshotFile.read(file));
        assertNames(e, file, header);
        assertTrue(e.getMessage().contains("impossible record length 0"), e.getMessage());
    }

    @Test
    void aFieldLengthPastItsRecordInASnapshotIsDamageNamingTheRecord() throws Exception {
        byte[] object = object(3, "a", "{}".getBytes(StandardCharsets.UTF_8));
        ByteBuffer.wrap(object).putInt(1 + 8, Integer.MAX_VALUE); // the resource's length
        Path file = snapshot(5, snapshotHeader(5, 5, 1, 0), object);
        long second = recordOffset(file, 1);
        StorageException e = assertThrows(StorageException.class, () -> SnapshotFile.read(file));
        assertNames(e, file, second);
        assertTrue(e.getMessage().contains("runs past its record"), e.getMessage());

        byte[] cut = Arrays.copyOf(object(3, "a", new byte[0]), 1 + 8 + 2);
        Path cutShort = snapshot(6, snapshotHeader(6, 6, 1, 0), cut, new byte[40]);
        e = assertThrows(StorageException.class, () -> SnapshotFile.read(cutShort));
        assertNames(e, cutShort, recordOffset(cutShort, 1));
        assertTrue(e.getMessage().contains("a field runs past the end of its record"), e.getMessage());
    }

    @Test
    void aSnapshotObjectThatIsNotJsonIsDamageNamingItsRecord() throws Exception {
        Path file = snapshot(5, snapshotHeader(5, 5, 1, 0),
                object(3, "a", "{\"a\":1} trailing".getBytes(StandardCharsets.UTF_8)),
                Records.write(out -> {
                    out.writeByte(Records.SNAPSHOT_END);
                    out.writeInt(1);
                    out.writeInt(0);
                }));
        StorageException e = assertThrows(StorageException.class,
                () -> SnapshotState.read(new DataDirectory.Snapshot(file, 5), new StoredJson(JSON)));
        assertNames(e, file, recordOffset(file, 1));
        assertTrue(e.getMessage().contains("not JSON"), e.getMessage());
    }

    private static byte[] historyEvent(long revision, EventType type, long previous) {
        byte[] entry = Records.entry(new LogEntry(revision, 0, type, new ObjectKey("configmaps", "default", "a"),
                "{}".getBytes(StandardCharsets.UTF_8)));
        return Records.write(out -> {
            out.writeByte(Records.HISTORY_EVENT);
            out.writeInt(entry.length);
            out.write(entry);
            out.writeLong(previous);
            out.writeBoolean(false);
        });
    }

    @Test
    void aSnapshotHistoryOutOfOrderOrReplacingWhatItCannotIsDamageNamingTheRecord() throws Exception {
        Path outOfOrder = snapshot(3, snapshotHeader(3, 1, 0, 2), historyEvent(3, EventType.ADDED, 0),
                historyEvent(2, EventType.ADDED, 0));
        StorageException e = assertThrows(StorageException.class, () -> SnapshotFile.read(outOfOrder));
        assertNames(e, outOfOrder, recordOffset(outOfOrder, 1));
        assertTrue(e.getMessage().contains("history event 0 is of revision 3, not 2"), e.getMessage());

        Path addedOverSomething = snapshot(4, snapshotHeader(4, 3, 0, 1), historyEvent(4, EventType.ADDED, 2));
        e = assertThrows(StorageException.class, () -> SnapshotFile.read(addedOverSomething));
        assertNames(e, addedOverSomething, recordOffset(addedOverSomething, 1));
        assertTrue(e.getMessage().contains("the ADDED event of revision 4 replaced an object of revision 2"),
                e.getMessage());
    }

    @Test
    void aFileNameGivingARevisionOutOfRangeIsNamedNotACrash() throws Exception {
        logOf(1);
        Path forged = Files.createFile(dir.resolve("wal-99999999999999999999.log"));
        StorageException e = assertThrows(StorageException.class, this::open);
        assertTrue(e.getMessage().contains(forged.toString()) && e.getMessage().contains("out of range"),
                e.getMessage());
    }
}
