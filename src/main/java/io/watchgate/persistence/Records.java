package io.watchgate.persistence;

import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The byte layout of the data directory's files: the log and snapshots are sequences of records, each a length,
 * a checksum and a payload, and every code below is part of the format, kept as it is for as long as old files must
 * read. ("Frame" is the watch's word, for the bytes of one event on the wire; here it is always "record".)
 *
 * <p>All integers are big-endian. A <em>string</em> or <em>bytes</em> field is an int32 length, then that many
 * bytes (UTF-8 for a string); a <em>key</em> is three strings: resource, namespace ("" when cluster-scoped), name.
 * <pre>
 * record           int32 length of the payload (1 .. MAX_PAYLOAD)
 *                  int32 CRC-32C of the 4 length bytes followed by the payload
 *                  payload, whose first byte is the record kind
 * ENTRY        (1) int64 revision, int64 commit time (ms since the epoch), int8 event type, key, bytes JSON
 *                  event type: 0 ADDED, 1 MODIFIED, 2 DELETED (for DELETED the JSON is the last state stamped
 *                  with the delete's revision); any other code is damage
 * OBJECT       (2) int64 revision it was written at, key, int8 whole (0 or 1), then bytes JSON if whole
 * SNAPSHOT_HEADER (3) int64 revision, int64 oldest retained revision, int32 objects, int32 history events
 * SNAPSHOT_END (4) int32 objects, int32 history events (as in the header)
 * HISTORY_EVENT (5) bytes: an ENTRY payload, int64 revision of the state it replaced (0 for none),
 *                  int8 whole (0 or 1), then bytes JSON of that state if whole
 * </pre>
 * A log segment is a sequence of ENTRY records in revision order. A snapshot is SNAPSHOT_HEADER, OBJECT records,
 * HISTORY_EVENT records, SNAPSHOT_END (see {@link SnapshotFile}). A record whose checksum does not match was torn or
 * damaged; so is an empty one.
 */
final class Records {

    static final int HEADER = 8;
    /** No legitimate record comes near this; a larger length is damage, not a record. */
    static final int MAX_PAYLOAD = 64 * 1024 * 1024;

    static final byte ENTRY = 1;
    static final byte OBJECT = 2;
    static final byte SNAPSHOT_HEADER = 3;
    static final byte SNAPSHOT_END = 4;
    static final byte HISTORY_EVENT = 5;

    /** The smallest ENTRY payload: empty key strings and JSON. */
    static final int MIN_ENTRY = 1 + 8 + 8 + 1 + 3 * 4 + 4;
    /** The fewest bytes an OBJECT record takes in a file, header included: empty key, not whole. */
    static final int MIN_OBJECT_RECORD = HEADER + 1 + 8 + 3 * 4 + 1;
    /** The fewest bytes a HISTORY_EVENT record takes in a file, header included. */
    static final int MIN_HISTORY_RECORD = HEADER + 1 + 4 + MIN_ENTRY + 8 + 1;
    /** The bytes a SNAPSHOT_END record takes in a file, header included. */
    static final int END_RECORD = HEADER + 1 + 4 + 4;

    private Records() {
    }

    /** A record around {@code payload}. */
    static ByteBuffer wrap(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(4).putInt(0, payload.length));
        crc.update(payload);
        ByteBuffer record = ByteBuffer.allocate(HEADER + payload.length);
        record.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
        return record;
    }

    static boolean checksumMatches(ByteBuffer payload, int expected) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(4).putInt(0, payload.remaining()));
        crc.update(payload.duplicate());
        return (int) crc.getValue() == expected;
    }

    /** A log entry's payload: kind, revision, commit time, event type, key, JSON. */
    static byte[] entry(LogEntry entry) {
        return write(out -> {
            out.writeByte(ENTRY);
            out.writeLong(entry.revision());
            out.writeLong(entry.committedAtMillis());
            out.writeByte(typeCode(entry.type()));
            key(out, entry.key());
            out.writeInt(entry.json().length);
            out.write(entry.json());
        });
    }

    static LogEntry readEntry(ByteBuffer payload) {
        expectKind(payload, ENTRY);
        long revision = payload.getLong();
        long committedAt = payload.getLong();
        EventType type = eventType(payload.get() & 0xff);
        ObjectKey key = readKey(payload);
        return new LogEntry(revision, committedAt, type, key, bytes(payload));
    }

    /**
     * The code an event type has in the log. Spelled out, never {@code ordinal()}: reordering or adding to
     * {@link EventType} must not change what existing logs mean (a new type fails to compile here until it has
     * a code of its own).
     */
    static byte typeCode(EventType type) {
        return switch (type) {
            case ADDED -> 0;
            case MODIFIED -> 1;
            case DELETED -> 2;
        };
    }

    /** The event type of a code read from the log; an unknown one is damage. */
    static EventType eventType(int code) {
        return switch (code) {
            case 0 -> EventType.ADDED;
            case 1 -> EventType.MODIFIED;
            case 2 -> EventType.DELETED;
            default -> throw new IllegalArgumentException("unknown event type code " + code);
        };
    }

    static void key(DataOutputStream out, ObjectKey key) throws IOException {
        string(out, key.resource());
        string(out, key.namespace());
        string(out, key.name());
    }

    static ObjectKey readKey(ByteBuffer in) {
        return new ObjectKey(readString(in), readString(in), readString(in));
    }

    static void string(DataOutputStream out, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String readString(ByteBuffer in) {
        return new String(bytes(in), StandardCharsets.UTF_8);
    }

    static byte[] bytes(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("a field of " + length + " bytes runs past its record");
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    /**
     * Whether {@code payload} is laid out as an ENTRY: its kind, then fields whose lengths end exactly where the
     * payload does. Cheap, and checked before a checksum when looking for whole entries among damaged bytes.
     */
    static boolean isEntryShaped(ByteBuffer payload) {
        int end = payload.limit();
        if (end < MIN_ENTRY || payload.get(0) != ENTRY) {
            return false;
        }
        int at = 1 + 8 + 8 + 1;
        for (int field = 0; field < 4; field++) { // resource, namespace, name, JSON
            int length = payload.getInt(at);
            at += 4;
            if (length < 0 || length > end - at || (field < 3 && end - at - length < 4)) {
                return false;
            }
            at += length;
        }
        return at == end;
    }

    /** What is wrong with a record whose fields could not be read, for a message: never just "null". */
    static String problem(RuntimeException e) {
        if (e instanceof BufferUnderflowException) {
            return "a field runs past the end of its record";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    static void expectKind(ByteBuffer payload, byte kind) {
        byte actual = payload.get();
        if (actual != kind) {
            throw new IllegalArgumentException("expected a record of kind " + kind + ", found " + actual);
        }
    }

    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: cannot happen
        }
        return bytes.toByteArray();
    }
}
