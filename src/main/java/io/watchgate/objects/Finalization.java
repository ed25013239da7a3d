package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.types.ResourceType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Graceful deletion: an object with finalizers is only marked deleted, and goes when the last one is removed. */
final class Finalization {

    private Finalization() {
    }

    static boolean hasFinalizers(ObjectNode object) {
        JsonNode finalizers = object.path("metadata").path("finalizers");
        return finalizers.isArray() && !finalizers.isEmpty();
    }

    static boolean isTerminating(ObjectNode object) {
        JsonNode timestamp = object.path("metadata").get("deletionTimestamp");
        return timestamp != null && !timestamp.isNull();
    }

    /** Once an object is being deleted, its finalizers may only go, never be added (422 otherwise). */
    static void checkNoNewFinalizers(ResourceType type, ObjectNode current, ObjectNode updated) {
        if (!isTerminating(current)) {
            return;
        }
        Set<JsonNode> before = new HashSet<>();
        current.path("metadata").path("finalizers").forEach(before::add);
        List<String> added = new ArrayList<>();
        updated.path("metadata").path("finalizers").forEach(f -> {
            if (!before.contains(f)) {
                added.add("\"" + f.asText() + "\"");
            }
        });
        if (!added.isEmpty()) {
            throw ApiException.invalid(type.group(), type.kind(), updated.path("metadata").path("name").asText(""),
                    List.of(Cause.forbidden("metadata.finalizers", "no new finalizers can be added if the object "
                            + "is being deleted, found new finalizers []string{" + String.join(", ", added) + "}")));
        }
    }

    static void markDeleted(ObjectNode object, Instant now) {
        ObjectNode metadata = object.withObject("/metadata");
        metadata.put("deletionTimestamp", ServerFields.timestamp(now));
        metadata.put("deletionGracePeriodSeconds", 0);
    }
}
