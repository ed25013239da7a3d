package io.watchgate.store;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/** The store's state in and out of files: restored and replayed at recovery, exported for a snapshot. */
final class StateTransfer {

    private final ReentrantLock commitLock;
    private final MvccIndex index;
    private final InFlightWrites inFlight;
    private final Installer installer;

    StateTransfer(ReentrantLock commitLock, MvccIndex index, InFlightWrites inFlight, Installer installer) {
        this.commitLock = commitLock;
        this.index = index;
        this.inFlight = inFlight;
        this.installer = installer;
    }

    /** See {@link LogBackedStore#restore}. */
    void restore(long revision, Iterable<StoredObject> state) {
        commitLock.lock();
        try {
            index.restore(revision, state);
        } finally {
            commitLock.unlock();
        }
    }

    /** See {@link LogBackedStore#replay}. */
    void replay(long revision, EventType type, StoredObject object, long committedAtMillis) {
        commitLock.lock();
        try {
            if (revision != index.revision() + 1) {
                throw new ReplayMismatch("revision " + revision + ", which does not follow " + index.revision());
            }
            StoredObject previous = inFlight.newest(object.key());
            if ((type == EventType.ADDED) != (previous == null)) {
                // a log that reads whole but says what cannot have happened: counts and history would go wrong
                ObjectKey key = object.key();
                throw new ReplayMismatch(type + " of " + key.resource() + "/"
                        + (key.namespace().isEmpty() ? "" : key.namespace() + "/") + key.name() + ", which "
                        + (previous == null ? "does not exist" : "exists already") + " at revision " + (revision - 1));
            }
            installer.install(new ChangeEvent(revision, type, object, previous, committedAtMillis));
        } finally {
            commitLock.unlock();
        }
    }

    /** See {@link LogBackedStore#snapshotView}. */
    SnapshotView snapshotView() {
        long at;
        List<ChangeEvent> events;
        commitLock.lock();
        try {
            at = index.revision();
            events = index.retainedEvents();
        } finally {
            commitLock.unlock();
        }
        return new SnapshotView(at, events, index.objectsAt(at));
    }
}
