package io.watchgate.garbagecollector;

import io.watchgate.store.ObjectKey;

/** One thing for the collector to judge, about one object; equal items are judged once. */
sealed interface Work {

    ObjectKey key();

    /** Whether the dependent at {@code key} has lost every owner that holds it (kube's attemptToDelete). */
    record Dependent(ObjectKey key) implements Work {
    }

    /** An owner deleted with the Orphan policy: its dependents let go of it, then its finalizer goes. */
    record OrphaningOwner(ObjectKey key) implements Work {
    }

    /** An owner deleted in the foreground: its dependents go, and it goes once none that blocks it is left. */
    record ForegroundOwner(ObjectKey key) implements Work {
    }
}
