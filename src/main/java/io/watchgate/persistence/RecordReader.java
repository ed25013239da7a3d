package io.watchgate.persistence;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the records of one file in order, and says where each begins and what is wrong with a bad one. */
final class RecordReader implements AutoCloseable {

    enum Outcome {
        /** {@link #payload()} holds the next record's payload */
        RECORD,
        /** the file ended cleanly, after a whole record */
        END,
        /** the record at {@link #recordStart()} is cut short or does not match its checksum: see {@link #problem()} */
        DAMAGED
    }

    private final Path file;
    private final long size;
    private final DataInputStream in;
    private long offset;
    private long recordStart;
    private ByteBuffer payload;
    private String problem;
    private boolean damageRunsToEnd;

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
            return damaged("a record header cut short (" + (size - offset) + " of " + Records.HEADER + " bytes)", true);
        }
        int length = in.readInt();
        int checksum = in.readInt();
        offset += Records.HEADER;
        if (length <= 0 || length > Records.MAX_PAYLOAD) {
            return damaged("an impossible record length " + length, allZeroFrom(recordStart)
                    || !wholeRecordAfter(recordStart));
        }
        if (length > size - offset) {
            // cut short by the end of the file, or a damaged length: only nothing intact after it makes it torn
            return damaged("a record of " + length + " bytes cut short at " + (size - offset) + " bytes",
                    !wholeRecordAfter(recordStart));
        }
        byte[] bytes = new byte[length];
        try {
            in.readFully(bytes);
        } catch (EOFException e) {
            return damaged("a record cut short", true);
        }
        offset += length;
        ByteBuffer read = ByteBuffer.wrap(bytes);
        if (!Records.checksumMatches(read, checksum)) {
            // a torn last write leaves its record last in the file; anything after it means damage inside
            return damaged("a checksum mismatch", (offset == size || allZeroFrom(recordStart))
                    && !wholeRecordAfter(recordStart));
        }
        payload = read;
        return Outcome.RECORD;
    }

    private Outcome damaged(String what, boolean runsToEnd) {
        problem = what;
        damageRunsToEnd = runsToEnd;
        return Outcome.DAMAGED;
    }

    /**
     * Whether a whole record (plausible length, matching checksum) starts anywhere after {@code position}: then the
     * damage at {@code position} is not a torn last write, and what follows must not be cut away. Damaged files
     * only; bounded by the file, which a segment's size bounds.
     */
    private boolean wholeRecordAfter(long position) throws IOException {
        byte[] rest;
        try (InputStream tail = Files.newInputStream(file)) {
            tail.skipNBytes(position + 1);
            rest = tail.readAllBytes();
        }
        ByteBuffer bytes = ByteBuffer.wrap(rest);
        for (int at = 0; at + Records.HEADER < rest.length; at++) {
            int length = bytes.getInt(at);
            if (length > 0 && length <= rest.length - at - Records.HEADER) {
                ByteBuffer payload = ByteBuffer.wrap(rest, at + Records.HEADER, length).slice();
                if (Records.checksumMatches(payload, bytes.getInt(at + 4))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether every byte from {@code position} to the end is zero (space the file system extended, unwritten). */
    private boolean allZeroFrom(long position) throws IOException {
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

    long size() {
        return size;
    }

    String problem() {
        return problem;
    }

    /** Whether the damage could be a torn last write: nothing intact follows it. */
    boolean damageRunsToEnd() {
        return damageRunsToEnd;
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
