package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The metadata the server owns: set on create, carried over on every later write whatever the client sent. */
final class ServerFields {

    private static final List<String> SERVER_OWNED = List.of("uid", "creationTimestamp", "generation",
            "deletionTimestamp", "deletionGracePeriodSeconds");

    private ServerFields() {
    }

    static String timestamp(Instant now) {
        return DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    }

    static void initialize(ObjectNode object, Instant now) {
        ObjectNode metadata = object.withObject("/metadata");
        SERVER_OWNED.forEach(metadata::remove);
        metadata.remove("resourceVersion");
        metadata.remove("selfLink");
        metadata.put("uid", UUID.randomUUID().toString());
        metadata.put("creationTimestamp", timestamp(now));
        metadata.put("generation", 1);
    }

    /**
     * Keeps the server's fields of {@code current} in {@code updated}; bumps generation on a non-metadata
     * change. A uid, when sent, must be the object's own (422 otherwise): a client working from an object that
     * was since deleted and created again must not overwrite its successor.
     */
    static void carryOver(ResourceType type, ObjectNode current, ObjectNode updated) {
        ObjectNode metadata = updated.withObject("/metadata");
        JsonNode currentMetadata = current.path("metadata");
        String uid = metadata.path("uid").asText("");
        String currentUid = currentMetadata.path("uid").asText("");
        if (!uid.isEmpty() && !uid.equals(currentUid)) {
            // kube-apiserver takes a uid in the body as a precondition of the update
            throw ApiException.conflict(type.group(), type.resource(), metadata.path("name").asText(""),
                    "Precondition failed: UID in precondition: " + uid + ", UID in object meta: " + currentUid);
        }
        for (String field : SERVER_OWNED) {
            JsonNode value = currentMetadata.get(field);
            if (value == null) {
                metadata.remove(field);
            } else {
                metadata.set(field, value.deepCopy());
            }
        }
        metadata.remove("selfLink");
        if (!sameOutsideMetadata(current, updated)) {
            metadata.put("generation", currentMetadata.path("generation").asLong(0) + 1);
        }
    }

    /** Whether the two objects are the same but for their resourceVersion. */
    static boolean sameIgnoringResourceVersion(ObjectNode current, ObjectNode updated) {
        return sameOutsideMetadata(current, updated)
                && equalIgnoring(current.path("metadata"), updated.path("metadata"), "resourceVersion");
    }

    private static boolean sameOutsideMetadata(ObjectNode a, ObjectNode b) {
        return equalIgnoring(a, b, "metadata");
    }

    /** Compares two JSON objects member by member, without copying either, skipping {@code ignored}. */
    private static boolean equalIgnoring(JsonNode a, JsonNode b, String ignored) {
        if (!a.isObject() || !b.isObject()) {
            return a.equals(b);
        }
        int sizeA = a.size() - (a.has(ignored) ? 1 : 0);
        int sizeB = b.size() - (b.has(ignored) ? 1 : 0);
        if (sizeA != sizeB) {
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> member = it.next();
            if (!member.getKey().equals(ignored) && !member.getValue().equals(b.get(member.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
