package io.watchgate.garbagecollector;

import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.util.Optional;

/**
 * Finds the object an owner reference names, from the newest state of the store: by its kind's group and name (any
 * served version of that kind files its objects in one place), in the dependent's namespace when the owner's kind
 * is namespaced, and trusts it only if its uid is the one named.
 */
final class OwnerLookup {

    private final ResourceTypes types;
    private final Store store;

    OwnerLookup(ResourceTypes types, Store store) {
        this.types = types;
        this.store = store;
    }

    OwnerState stateOf(OwnerReference reference, ObjectKey dependent) {
        Optional<ResourceType> kind = kindOf(reference);
        if (kind.isEmpty() || (kind.get().namespaced() && dependent.namespace().isEmpty())) {
            return OwnerState.UNRESOLVABLE;
        }
        StoredObject owner = store.latest(keyOf(kind.get(), reference, dependent));
        if (owner == null || !reference.uid().equals(uidOf(owner))) {
            return OwnerState.DANGLING;
        }
        if (Lifecycle.isTerminating(owner) && Lifecycle.hasFinalizer(owner, Lifecycle.FOREGROUND)) {
            return OwnerState.WAITING;
        }
        return OwnerState.SOLID;
    }

    private Optional<ResourceType> kindOf(OwnerReference reference) {
        String group = reference.group();
        return types.all().stream()
                .filter(type -> type.group().equals(group) && type.kind().equals(reference.kind()))
                .findFirst();
    }

    private static ObjectKey keyOf(ResourceType kind, OwnerReference reference, ObjectKey dependent) {
        return new ObjectKey(kind.resource(), kind.namespaced() ? dependent.namespace() : "", reference.name());
    }

    static String uidOf(StoredObject object) {
        return object.tree().path("metadata").path("uid").asText("");
    }
}
