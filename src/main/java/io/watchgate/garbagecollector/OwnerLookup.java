package io.watchgate.garbagecollector;

import io.watchgate.objects.Finalization;
import io.watchgate.objects.Propagation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;

/**
 * Judges an owner reference from the newest state of the store: the object of its kind and name (any served
 * version of that kind files its objects in one place), in the dependent's namespace when the owner's kind is
 * namespaced, trusted only if its uid is the one named.
 */
final class OwnerLookup {

    private final KindIndex kinds;
    private final Store store;

    OwnerLookup(KindIndex kinds, Store store) {
        this.kinds = kinds;
        this.store = store;
    }

    OwnerState stateOf(OwnerReference reference, ObjectKey dependent) {
        ResourceType kind = kinds.kind(reference.group(), reference.kind());
        if (kind == null) {
            return OwnerState.UNKNOWN_KIND;
        }
        OwnerId owner = kinds.resolve(reference, dependent);
        if (owner == null) {
            return OwnerState.OUT_OF_SCOPE;
        }
        StoredObject found = store.latest(owner.key());
        if (found == null || !reference.uid().equals(uidOf(found))) {
            return OwnerState.DANGLING;
        }
        if (Finalization.heldBy(found.tree(), Propagation.FOREGROUND_FINALIZER)) {
            return OwnerState.WAITING;
        }
        return OwnerState.SOLID;
    }

    static String uidOf(StoredObject object) {
        return object.tree().path("metadata").path("uid").asText("");
    }
}
