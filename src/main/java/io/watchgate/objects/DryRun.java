package io.watchgate.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;

/** The answer to a {@code dryRun=All} write: the object as it would have been stored, never serialized yet. */
final class DryRun {

    private DryRun() {
    }

    static StoredObject of(ObjectKey key, ObjectNode object) {
        return new StoredObject(key, object, null, 0);
    }
}
