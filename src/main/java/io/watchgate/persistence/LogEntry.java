package io.watchgate.persistence;

import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;

/**
 * One committed mutation as the log keeps it: its revision, when it was committed, what happened, to which key,
 * and the object's stored JSON (for a delete, its last state stamped with the delete's revision).
 */
record LogEntry(long revision, long committedAtMillis, EventType type, ObjectKey key, byte[] json) {

    static LogEntry of(ChangeEvent event) {
        return new LogEntry(event.revision(), event.committedAtMillis(), event.type(), event.key(),
                event.object().json());
    }
}
