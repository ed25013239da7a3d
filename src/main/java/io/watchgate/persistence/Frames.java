package io.watchgate.persistence;

import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The framing of every record in the log and in snapshots: a 4-byte length, a 4-byte CRC-32C of the length and
 * the payload, then the payload. A frame whose checksum does not match was torn or damaged; so is an empty one.
 */
final class Frames {

    static final int HEADER = 8;
    /** No legitimate record comes near this; a larger length is damage, not a record. */
    static final int MAX_PAYLOAD = 64 * 1024 * 1024;

    static final byte ENTRY = 1;
    static final byte OBJECT = 2;
    static final byte SNAPSHOT_HEADER = 3;
    static final byte SNAPSHOT_END = 4;

    private Frames() {
    }

    /** A frame around {@code payload}. */
    static ByteBuffer frame(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(4).putInt(0, payload.length));
        crc.update(payload);
        ByteBuffer frame = ByteBuffer.allocate(HEADER + payload.length);
        frame.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
        return frame;
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
            out.writeByte(entry.type().ordinal());
            key(out, entry.key());
            out.writeInt(entry.json().length);
            out.write(entry.json());
        });
    }

    static LogEntry readEntry(ByteBuffer payload) {
        expectKind(payload, ENTRY);
        long revision = payload.getLong();
        long committedAt = payload.getLong();
        int type = payload.get();
        if (type < 0 || type >= EventType.values().length) {
            throw new IllegalArgumentException("unknown event type " + type);
        }
        ObjectKey key = readKey(payload);
        return new LogEntry(revision, committedAt, EventType.values()[type], key, bytes(payload));
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
