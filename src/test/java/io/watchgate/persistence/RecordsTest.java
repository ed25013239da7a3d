package io.watchgate.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The log's byte layout, as {@link Records} documents it: what files already on disk hold. */
class RecordsTest {

    /** Where an entry's event type sits: after the kind byte, the revision and the commit time. */
    private static final int TYPE_OFFSET = 1 + 8 + 8;

    private static LogEntry entry(EventType type) {
        return new LogEntry(42, 1_767_225_600_000L, type, new ObjectKey("configmaps", "default", "a"),
                "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eventTypesHaveTheCodesEveryExistingLogHolds() {
        Map<EventType, Integer> codes = Map.of(EventType.ADDED, 0, EventType.MODIFIED, 1, EventType.DELETED, 2);
        assertEquals(EventType.values().length, codes.size(), "a new event type needs a new code, never a reused one");
        codes.forEach((type, code) -> {
            byte[] payload = Records.entry(entry(type));
            assertEquals(code, payload[TYPE_OFFSET], type + " is written as " + code);
            assertEquals(type, Records.readEntry(ByteBuffer.wrap(payload)).type(), code + " reads as " + type);
        });
    }

    @Test
    void anEntryReadsBackAsItWasWritten() {
        LogEntry written = entry(EventType.MODIFIED);
        byte[] payload = Records.entry(written);
        assertEquals(Records.ENTRY, payload[0], "the record kind comes first");
        LogEntry read = Records.readEntry(ByteBuffer.wrap(payload));
        assertEquals(written.revision(), read.revision());
        assertEquals(written.committedAtMillis(), read.committedAtMillis());
        assertEquals(written.type(), read.type());
        assertEquals(written.key(), read.key());
        assertArrayEquals(written.json(), read.json());
    }

    @Test
    void anUnknownEventTypeCodeIsDamageNamedAsSuch() {
        for (int code : new int[] {3, 127, 128, 255}) {
            byte[] payload = Records.entry(entry(EventType.ADDED));
            payload[TYPE_OFFSET] = (byte) code;
            IllegalArgumentException damage = assertThrows(IllegalArgumentException.class,
                    () -> Records.readEntry(ByteBuffer.wrap(payload)));
            assertTrue(damage.getMessage().contains("unknown event type code " + code), damage.getMessage());
        }
    }

    @Test
    void aRecordIsItsLengthItsChecksumAndItsPayload() {
        byte[] payload = {1, 2, 3};
        ByteBuffer record = Records.wrap(payload);
        assertEquals(Records.HEADER + payload.length, record.remaining());
        assertEquals(payload.length, record.getInt(0));
        assertTrue(Records.checksumMatches(ByteBuffer.wrap(payload), record.getInt(4)));
        assertEquals(false, Records.checksumMatches(ByteBuffer.wrap(new byte[] {1, 2, 4}), record.getInt(4)));
    }

    @Test
    void anEntryIsToldByItsLayoutBeforeItsChecksumIsComputed() {
        byte[] payload = Records.entry(entry(EventType.ADDED));
        assertTrue(Records.isEntryShaped(ByteBuffer.wrap(payload)));
        assertEquals(false, Records.isEntryShaped(ByteBuffer.wrap(payload, 0, payload.length - 1).slice()),
                "its JSON's length no longer ends where the payload does");
        byte[] longer = Arrays.copyOf(payload, payload.length + 1);
        assertEquals(false, Records.isEntryShaped(ByteBuffer.wrap(longer)), "nor with a byte more");
        byte[] otherKind = payload.clone();
        otherKind[0] = Records.OBJECT;
        assertEquals(false, Records.isEntryShaped(ByteBuffer.wrap(otherKind)));
        byte[] hugeName = payload.clone();
        ByteBuffer.wrap(hugeName).putInt(TYPE_OFFSET + 1, Integer.MAX_VALUE);
        assertEquals(false, Records.isEntryShaped(ByteBuffer.wrap(hugeName)), "a length past the payload");
    }
}
