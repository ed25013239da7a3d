package io.watchgate.managedfields;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** metadata.managedFields as a list: how entries are read, ordered, and capped. */
class ManagedFieldsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static FieldSet field(String name) {
        FieldSet set = FieldSet.empty();
        set.insert(List.of(PathElement.field("data"), PathElement.field(name)));
        return set;
    }

    @Test
    void entriesAreWrittenApplyFirstThenOldestFirst() {
        List<ManagedFieldsEntry> entries = List.of(
                new ManagedFieldsEntry("u2", ManagedFieldsEntry.Operation.Update, "v1", "2026-01-02T00:00:00Z",
                        field("b"), ""),
                new ManagedFieldsEntry("u1", ManagedFieldsEntry.Operation.Update, "v1", "2026-01-01T00:00:00Z",
                        field("a"), "status"),
                new ManagedFieldsEntry("a1", ManagedFieldsEntry.Operation.Apply, "v1", "2026-01-03T00:00:00Z",
                        field("c"), ""));
        JsonNode written = ManagedFields.encode(entries);
        assertEquals(List.of("a1", "u1", "u2"), List.of(written.get(0).path("manager").asText(),
                written.get(1).path("manager").asText(), written.get(2).path("manager").asText()));
        assertEquals("{\"manager\":\"u1\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":"
                + "\"2026-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:data\":{\"f:a\":{}}},"
                + "\"subresource\":\"status\"}", written.get(1).toString());
        assertEquals(3, ManagedFields.decode(written).orElseThrow().size());
    }

    @Test
    void aListWithAnUndecodableEntryIsIgnoredWhole() throws Exception {
        assertTrue(ManagedFields.decode(JSON.readTree("[{\"manager\":\"m\",\"operation\":\"Delete\","
                + "\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{}}]")).isEmpty());
        assertTrue(ManagedFields.decode(JSON.readTree("[{\"manager\":\"m\",\"operation\":\"Update\","
                + "\"apiVersion\":\"\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{}}]")).isEmpty());
        assertTrue(ManagedFields.isReset(JSON.readTree("[{}]")));
        assertTrue(ManagedFields.isReset(JSON.readTree("[]")));
    }

    @Test
    void beyondTenUpdateEntriesTheOldestAreFoldedIntoAncientChanges() {
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries = new LinkedHashMap<>();
        for (int i = 0; i < 12; i++) {
            ManagedFieldsEntry entry = new ManagedFieldsEntry("m" + i, ManagedFieldsEntry.Operation.Update, "v1",
                    "2026-01-01T00:00:%02dZ".formatted(i), field("f" + i), "");
            entries.put(entry.key(), entry);
        }
        ManagedFieldsEntry applied = new ManagedFieldsEntry("a", ManagedFieldsEntry.Operation.Apply, "v1", null,
                field("x"), "");
        entries.put(applied.key(), applied);
        ManagedFields.cap(entries);
        assertEquals(ManagedFields.MAX_UPDATE_ENTRIES + 1, entries.size());
        ManagedFieldsEntry ancient = entries.get(ManagedFieldsEntry.Key.update("ancient-changes", "v1", ""));
        assertEquals("{\"f:data\":{\"f:f0\":{},\"f:f1\":{},\"f:f2\":{}}}", ancient.fields().toString());
        assertEquals("2026-01-01T00:00:02Z", ancient.time());
        assertTrue(entries.containsKey(applied.key()), "Apply entries are never folded");
    }
}
