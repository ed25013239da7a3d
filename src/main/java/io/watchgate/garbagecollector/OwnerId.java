package io.watchgate.garbagecollector;

import io.watchgate.store.ObjectKey;

/**
 * An owner as a reference resolves it: its uid and where an object of its kind and name is filed, seen from the
 * dependent (a namespaced owner in the dependent's namespace). Two references with one uid that resolve to different
 * places name different owners: a reference from another namespace cannot hold or block an owner it cannot reach.
 */
record OwnerId(String uid, ObjectKey key) {
}
