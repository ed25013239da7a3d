package io.watchgate.garbagecollector;

import io.watchgate.store.ObjectKey;

/** One thing for the collector to judge, about one object; equal items waiting are judged once. */
sealed interface Work {

    ObjectKey key();

    /** Whether the dependent at {@code key} has lost every owner that holds it (kube's attemptToDelete). */
    record Dependent(ObjectKey key) implements Work {
    }

    /** An owner deleted with the Orphan policy: its dependents let go of it, then its finalizer goes. */
    record OrphaningOwner(ObjectKey key) implements Work {
    }

    /** An owner that has just started a foreground deletion: each of its dependents is judged. */
    record ForegroundOwner(ObjectKey key) implements Work {
    }

    /** An owner in a foreground deletion: it goes once no dependent blocks it. */
    record ForegroundCheck(ObjectKey key) implements Work {
    }
}
