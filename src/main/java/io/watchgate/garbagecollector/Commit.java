package io.watchgate.garbagecollector;

import io.watchgate.objects.Finalization;
import io.watchgate.objects.Propagation;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import java.util.HashMap;
import java.util.Map;

/**
 * What the collector reads of one commit, taken from it while the commit is made: small and of bounded size
 * whatever the object's, so that commits waiting to be read do not keep objects alive.
 *
 * @param owners       the owners the object names and can reach, each with whether the reference blocks the owner's
 *                     foreground deletion; empty when deleted
 * @param foreground   whether it is being deleted, held by {@code foregroundDeletion}
 * @param orphaning    whether it is being deleted, held by {@code orphan}
 */
record Commit(ObjectKey key, String uid, boolean deleted, Map<OwnerId, Boolean> owners, boolean namesOwners,
        boolean foreground, boolean orphaning) {

    static Commit of(ChangeEvent change, KindIndex kinds) {
        if (change.type() == EventType.DELETED) {
            return new Commit(change.key(), OwnerLookup.uidOf(change.object()), true, Map.of(), false, false, false);
        }
        return of(change.object(), kinds);
    }

    /** The object as stored. */
    static Commit of(StoredObject object, KindIndex kinds) {
        ObjectKey key = object.key();
        Map<OwnerId, Boolean> owners = new HashMap<>();
        boolean namesOwners = false;
        for (OwnerReference reference : OwnerReference.of(object.tree())) {
            namesOwners = true;
            OwnerId owner = kinds.resolve(reference, key);
            if (owner != null) {
                owners.merge(owner, reference.blockOwnerDeletion(), Boolean::logicalOr);
            }
        }
        return new Commit(key, OwnerLookup.uidOf(object), false, Map.copyOf(owners), namesOwners,
                Finalization.heldBy(object.tree(), Propagation.FOREGROUND_FINALIZER),
                Finalization.heldBy(object.tree(), Propagation.ORPHAN_FINALIZER));
    }

    /** The object as an owner. */
    OwnerId self() {
        return new OwnerId(uid, key);
    }
}
