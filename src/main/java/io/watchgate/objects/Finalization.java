package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

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

    static void markDeleted(ObjectNode object, Instant now) {
        ObjectNode metadata = object.withObject("/metadata");
        metadata.put("deletionTimestamp", ServerFields.timestamp(now));
        metadata.put("deletionGracePeriodSeconds", 0);
    }
}
