package io.watchgate.store;

/**
 * The one event every committed mutation yields.
 *
 * @param object   the state after the change; for DELETED, the last state stamped with the delete's revision
 * @param previous the state before the change, or null for ADDED
 */
public record ChangeEvent(long revision, EventType type, StoredObject object, StoredObject previous,
        long committedAtMillis) {

    public ObjectKey key() {
        return object.key();
    }
}
