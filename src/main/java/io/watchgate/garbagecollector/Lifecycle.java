package io.watchgate.garbagecollector;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.objects.Propagation;
import io.watchgate.store.StoredObject;

/** What the collector reads of an object's deletion: whether it is under way, and which finalizers hold it. */
final class Lifecycle {

    static final String ORPHAN = Propagation.ORPHAN_FINALIZER;
    static final String FOREGROUND = Propagation.FOREGROUND_FINALIZER;

    private Lifecycle() {
    }

    static boolean isTerminating(StoredObject object) {
        JsonNode timestamp = object.tree().path("metadata").get("deletionTimestamp");
        return timestamp != null && !timestamp.isNull();
    }

    static boolean hasFinalizer(StoredObject object, String finalizer) {
        for (JsonNode name : object.tree().path("metadata").path("finalizers")) {
            if (finalizer.equals(name.asText())) {
                return true;
            }
        }
        return false;
    }
}
