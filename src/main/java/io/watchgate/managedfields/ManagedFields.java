package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code metadata.managedFields} read and written as kube-apiserver reads and writes it: entries by {@link
 * ManagedFieldsEntry.Key} (two sent with one key are one), written Apply first, then oldest first; at most
 * {@link #MAX_UPDATE_ENTRIES} Update entries, the older ones of a version folded into {@code ancient-changes}.
 */
public final class ManagedFields {

    public static final int MAX_UPDATE_ENTRIES = 10;
    static final String ANCIENT_CHANGES = "ancient-changes";

    private static final Comparator<ManagedFieldsEntry> WRITTEN_ORDER = Comparator
            .comparing(ManagedFieldsEntry::operation)
            .thenComparing(entry -> entry.time() == null ? "" : entry.time())
            .thenComparing(ManagedFieldsEntry::manager)
            .thenComparing(ManagedFieldsEntry::apiVersion)
            .thenComparing(ManagedFieldsEntry::subresource);

    private ManagedFields() {
    }

    /** Whether a write sends managedFields to clear them: {@code [{}]}, or an empty list. */
    public static boolean isReset(JsonNode managedFields) {
        return managedFields != null && managedFields.isArray() && (managedFields.isEmpty()
                || managedFields.size() == 1 && managedFields.get(0).isObject() && managedFields.get(0).isEmpty());
    }

    /**
     * The entries {@code managedFields} holds; empty when it is absent or any entry does not decode (kube-apiserver
     * then keeps what it had, as it does here).
     */
    public static Optional<Map<ManagedFieldsEntry.Key, ManagedFieldsEntry>> decode(JsonNode managedFields) {
        if (managedFields == null || !managedFields.isArray()) {
            return Optional.empty();
        }
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries = new LinkedHashMap<>();
        for (JsonNode entry : managedFields) {
            Optional<ManagedFieldsEntry> decoded = decodeEntry(entry);
            if (decoded.isEmpty()) {
                return Optional.empty();
            }
            entries.put(decoded.get().key(), decoded.get()); // of two with one key, the last counts, as in kube
        }
        return Optional.of(entries);
    }

    private static Optional<ManagedFieldsEntry> decodeEntry(JsonNode entry) {
        if (!entry.isObject()) {
            return Optional.empty();
        }
        ManagedFieldsEntry.Operation operation;
        try {
            operation = ManagedFieldsEntry.Operation.valueOf(entry.path("operation").asText());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        String apiVersion = entry.path("apiVersion").asText("");
        JsonNode fieldsV1 = entry.get("fieldsV1");
        if (apiVersion.isEmpty() || !"FieldsV1".equals(entry.path("fieldsType").asText(""))
                || !entry.path("manager").isTextual() && entry.has("manager")) {
            return Optional.empty();
        }
        FieldSet fields;
        try {
            fields = fieldsV1 == null || fieldsV1.isNull() ? FieldSet.empty() : FieldsV1.decode(fieldsV1);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        JsonNode time = entry.get("time");
        return Optional.of(new ManagedFieldsEntry(entry.path("manager").asText(""), operation, apiVersion,
                time == null || !time.isTextual() ? null : time.textValue(), fields,
                entry.path("subresource").asText("")));
    }

    /** The entries as {@code metadata.managedFields} shows them, in kube-apiserver's order and member order. */
    public static ArrayNode encode(Iterable<ManagedFieldsEntry> entries) {
        List<ManagedFieldsEntry> sorted = new ArrayList<>();
        entries.forEach(sorted::add);
        sorted.sort(WRITTEN_ORDER);
        ArrayNode encoded = JsonNodeFactory.instance.arrayNode(sorted.size());
        for (ManagedFieldsEntry entry : sorted) {
            ObjectNode node = encoded.addObject();
            node.put("manager", entry.manager());
            node.put("operation", entry.operation().name());
            node.put("apiVersion", entry.apiVersion());
            if (entry.time() != null) {
                node.put("time", entry.time());
            }
            node.put("fieldsType", "FieldsV1");
            node.set("fieldsV1", FieldsV1.encode(entry.fields()));
            if (!entry.subresource().isEmpty()) {
                node.put("subresource", entry.subresource());
            }
        }
        return encoded;
    }

    /**
     * At most {@link #MAX_UPDATE_ENTRIES} Update entries, as kube-apiserver's capManagers keeps them: oldest first (by
     * the second, then by the manager's identifier), the first entry of each version is remembered and each later
     * one is folded into that version's {@code ancient-changes} entry (made of the remembered one when there is
     * none yet), until few enough are left.
     */
    static void cap(Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries) {
        List<ManagedFieldsEntry> updates = new ArrayList<>();
        entries.values().stream().filter(e -> e.operation() == ManagedFieldsEntry.Operation.Update)
                .forEach(updates::add);
        if (updates.size() <= MAX_UPDATE_ENTRIES) {
            return;
        }
        // each entry's time parsed and identifier written once, not at each comparison: clients send these times
        updates = updates.stream().map(e -> new Ordered(e, seconds(e.time()), identifier(e)))
                .sorted(Comparator.comparingLong(Ordered::seconds).thenComparing(Ordered::identifier))
                .map(Ordered::entry).toList();
        Map<String, ManagedFieldsEntry.Key> firstOfVersion = new LinkedHashMap<>();
        /** Each bucket's fields, gathered once rather than copied at each fold. */
        Map<ManagedFieldsEntry.Key, FieldSet> buckets = new LinkedHashMap<>();
        int count = updates.size();
        for (int i = 0; i < updates.size() && count > MAX_UPDATE_ENTRIES; i++) {
            ManagedFieldsEntry entry = updates.get(i);
            ManagedFieldsEntry.Key first = firstOfVersion.putIfAbsent(entry.apiVersion(), entry.key());
            if (first == null) {
                continue;
            }
            ManagedFieldsEntry.Key bucketKey = ManagedFieldsEntry.Key.update(ANCIENT_CHANGES, entry.apiVersion(), "");
            FieldSet bucket = buckets.get(bucketKey);
            if (bucket == null) {
                ManagedFieldsEntry existing = entries.get(bucketKey);
                if (existing == null) {
                    existing = entries.remove(first);
                }
                bucket = existing.fields().copy();
                buckets.put(bucketKey, bucket);
            }
            if (entry.key().equals(bucketKey)) {
                continue; // the bucket itself, met in its turn: nothing to fold
            }
            bucket.addAll(entry.fields());
            entries.remove(entry.key());
            String bucketTime = entries.get(bucketKey) == null ? null : entries.get(bucketKey).time();
            entries.put(bucketKey, new ManagedFieldsEntry(ANCIENT_CHANGES, ManagedFieldsEntry.Operation.Update,
                    entry.apiVersion(), seconds(bucketTime) > seconds(entry.time()) ? bucketTime : entry.time(),
                    bucket, ""));
            count--;
        }
    }

    private record Ordered(ManagedFieldsEntry entry, long seconds, String identifier) {
    }

    private static long seconds(String time) {
        if (time == null) {
            return 0;
        }
        try {
            return java.time.OffsetDateTime.parse(time).toEpochSecond();
        } catch (java.time.format.DateTimeParseException e) {
            return 0;
        }
    }

    /** kube-apiserver's identifier of an entry: its key as JSON, which ties between entries of one second sort by. */
    private static String identifier(ManagedFieldsEntry entry) {
        var node = JsonNodeFactory.instance.objectNode();
        node.put("manager", entry.manager());
        node.put("operation", entry.operation().name());
        node.put("apiVersion", entry.apiVersion());
        if (!entry.subresource().isEmpty()) {
            node.put("subresource", entry.subresource());
        }
        return node.toString();
    }
}
