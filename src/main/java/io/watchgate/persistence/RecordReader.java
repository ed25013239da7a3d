package io.watchgate.persistence;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the records of one file in order, and says where each begins and what is wrong with a bad one. Every
 * length is checked against the bytes the file has left before anything is allocated for it: the file is input
 * like any other, and a damaged (or forged) length must be reported, not obeyed.
 */
final class RecordReader implements AutoCloseable {

    enum Outcome {
        /** {@link #payload()} holds the next record's payload */
        RECORD,
        /** the file ended cleanly, after a whole record */
        END,
        /** the record at {@link #recordStart()} is cut short or does not match its checksum: see {@link #problem()} */
        DAMAGED
    }

    /**
     * The most a torn write can span: one batch of the log, at most {@code InFlightWrites.MAX_BYTES} (64 MiB) of
     * objects plus their records' framing. Damage that begins further from the end cannot be a write that was cut
     * short, and the search for whole records after it is bounded by this too.
     */
    static final long TORN_WRITE_MAX = 2L * Records.MAX_PAYLOAD;
    /**
     * The most bytes checksummed while looking for a whole entry after damage: linear in the window, however the
     * bytes there are laid out. Past it the damage is not taken for a torn write (the start stops and says so).
     */
    private static final long CHECKSUM_BUDGET = 8 * TORN_WRITE_MAX;

    /** Whether damage could be a torn last write; asked only of the newest log segment. */
    private interface TornCheck {
        /** Null when the damage could be a torn last write, else why it cannot. */
        String whyNotTorn() throws IOException;
    }

    private final Path file;
    private final long size;
    private final DataInputStream in;
    private long offset;
    private long recordStart;
    private ByteBuffer payload;
    private String problem;
    private TornCheck tornCheck;

    RecordReader(Path file) throws IOException {
        this.file = file;
        this.size = Files.size(file);
        InputStream stream = Files.newInputStream(file);
        this.in = new DataInputStream(new BufferedInputStream(stream, 1 << 16));
    }

    Outcome next() throws IOException {
        recordStart = offset;
        if (offset == size) {
            return Outcome.END;
        }
        if (size - offset < Records.HEADER) {
            return damaged("a record header cut short (" + (size - offset) + " of " + Records.HEADER + " bytes)",
                    this::tornIfNearTheEnd);
        }
        int length = in.readInt();
        int checksum = in.readInt();
        offset += Records.HEADER;
        if (length <= 0 || length > Records.MAX_PAYLOAD) {
            return damaged("an impossible record length " + length,
                    () -> allZeroFrom(recordStart) ? tornIfNearTheEnd() : noWholeEntryAfter(recordStart));
        }
        if (length > size - offset) {
            // cut short by the end of the file, or a damaged length: only nothing intact after it makes it torn
            return damaged("a record of " + length + " bytes cut short at " + (size - offset) + " bytes",
                    () -> noWholeEntryAfter(recordStart));
        }
        byte[] bytes = new byte[length];
        try {
            in.readFully(bytes);
        } catch (EOFException e) {
            return damaged("a record cut short", this::tornIfNearTheEnd);
        }
        offset += length;
        ByteBuffer read = ByteBuffer.wrap(bytes);
        if (!Records.checksumMatches(read, checksum)) {
            long end = offset;
            // a torn last write leaves its record last in the file; anything after it means damage inside
            return damaged("a checksum mismatch", () -> end == size || allZeroFrom(recordStart)
                    ? noWholeEntryAfter(recordStart)
                    : (size - end) + " bytes follow it");
        }
        payload = read;
        return Outcome.RECORD;
    }

    private Outcome damaged(String what, TornCheck check) {
        problem = what;
        tornCheck = check;
        return Outcome.DAMAGED;
    }

    private String tornIfNearTheEnd() {
        long tail = size - recordStart;
        return tail <= TORN_WRITE_MAX ? null
                : "it begins " + tail + " bytes before the end of the file, more than one write can span";
    }

    /**
     * Null when no whole log entry (plausible length, the shape of an entry, matching checksum) starts anywhere
     * after {@code position}; else why the damage at {@code position} is not a torn last write. Reads the file
     * through a mapping, so nothing on the heap grows with it, and checksums at most {@link #CHECKSUM_BUDGET}
     * bytes, so bytes laid out to look like many long records cannot stall the start.
     */
    private String noWholeEntryAfter(long position) throws IOException {
        String far = tornIfNearTheEnd();
        if (far != null) {
            return far;
        }
        long from = position + 1;
        if (from >= size) {
            return null;
        }
        ByteBuffer rest;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            rest = channel.map(FileChannel.MapMode.READ_ONLY, from, size - from);
        }
        long budget = CHECKSUM_BUDGET;
        int limit = rest.capacity();
        for (int at = 0; at + Records.HEADER < limit; at++) {
            int length = rest.getInt(at);
            if (length <= 0 || length > Records.MAX_PAYLOAD || length > limit - at - Records.HEADER) {
                continue;
            }
            ByteBuffer candidate = rest.slice(at + Records.HEADER, length);
            if (!Records.isEntryShaped(candidate)) {
                continue;
            }
            budget -= length;
            if (budget < 0) {
                return "the " + (size - from) + " bytes after it could not all be checked for whole entries";
            }
            if (Records.checksumMatches(candidate, rest.getInt(at + 4))) {
                return "a whole entry follows it at offset " + (from + at);
            }
        }
        return null;
    }

    /** Whether every byte from {@code position} to the end is zero (space the file system extended, unwritten). */
    private boolean allZeroFrom(long position) throws IOException {
        if (size - position > TORN_WRITE_MAX) {
            return false; // not a torn write, whatever it holds: no need to read it
        }
        try (InputStream rest = Files.newInputStream(file)) {
            rest.skipNBytes(position);
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = rest.read(buffer)) > 0;) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] != 0) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    ByteBuffer payload() {
        return payload;
    }

    long recordStart() {
        return recordStart;
    }

    /** Where the next record begins: the bytes before it are read. */
    long position() {
        return offset;
    }

    long size() {
        return size;
    }

    String problem() {
        return problem;
    }

    /**
     * Null when the damage could be a torn last write (nothing intact follows it, and it lies within the span of
     * one write from the end); else why it cannot be. Decided only when asked: only the newest log segment asks.
     */
    String whyNotTorn() throws IOException {
        return tornCheck.whyNotTorn();
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
