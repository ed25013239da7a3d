package io.watchgate.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;

/**
 * The checked part of a commit, under the commit lock: the precondition and guards against the newest state
 * (installed or on its way to the log), then the object stamped with its revision and serialized, once, for
 * every reader and watcher to share. The serializing is done before the lock where it can be
 * ({@link Prestamped}): the lock then covers a copy of the bytes.
 */
final class CommitPreparation {

    private final ObjectMapper mapper;
    private final Clock clock;
    private final InFlightWrites inFlight;

    CommitPreparation(ObjectMapper mapper, Clock clock, InFlightWrites inFlight) {
        this.mapper = mapper;
        this.clock = clock;
        this.inFlight = inFlight;
    }

    /**
     * Outside the commit lock: {@code mutation}'s object serialized with a stand-in resourceVersion (for a deletion,
     * a copy of the version it would delete now), so that the commit only copies bytes; or null.
     */
    Prestamped prestamp(Mutation mutation) {
        if (mutation.op() != Mutation.Op.DELETE) {
            return Prestamped.of(mapper, mutation.object(), null);
        }
        StoredObject seen = inFlight.newest(mutation.key());
        return seen == null ? null : Prestamped.of(mapper, seen.tree().deepCopy(), seen);
    }

    /**
     * Checks {@code mutation} and builds its event at revision {@code next}, from {@code prestamped} where it still
     * fits; a refused write takes nothing.
     */
    ChangeEvent prepare(Mutation mutation, long next, Prestamped prestamped) {
        ObjectKey key = mutation.key();
        StoredObject current = inFlight.newest(key);
        checkPrecondition(mutation, current);
        mutation.guards().forEach(this::checkGuard);
        boolean delete = mutation.op() == Mutation.Op.DELETE;
        Prestamped ready = prestamped != null && (!delete || prestamped.basis() == current) ? prestamped : null;
        ObjectNode tree = ready != null ? ready.tree() : delete ? current.tree().deepCopy() : mutation.object();
        StoredObject stored = stamp(key, tree, next, ready);
        EventType type = delete ? EventType.DELETED : current == null ? EventType.ADDED : EventType.MODIFIED;
        return new ChangeEvent(next, type, stored, current, clock.millis());
    }

    private void checkGuard(Mutation.Guard guard) {
        StoredObject value = inFlight.newest(guard.key());
        if (value == null || value.revision() != guard.revision()) {
            throw new StoreException.GuardChanged(guard.key());
        }
    }

    private static void checkPrecondition(Mutation mutation, StoredObject current) {
        switch (mutation.op()) {
            case CREATE -> {
                if (current != null) {
                    throw new StoreException.KeyExists(mutation.key());
                }
            }
            case UPDATE, DELETE -> {
                if (current == null) {
                    throw new StoreException.KeyNotFound(mutation.key());
                }
                if (mutation.expectedRevision() != 0 && mutation.expectedRevision() != current.revision()) {
                    throw new StoreException.RevisionConflict(current);
                }
            }
        }
    }

    private StoredObject stamp(ObjectKey key, ObjectNode tree, long rev, Prestamped ready) {
        tree.withObject("/metadata").put("resourceVersion", Long.toString(rev));
        if (ready != null) {
            return new StoredObject(key, tree, ready.at(rev), rev);
        }
        try {
            return new StoredObject(key, tree, mapper.writeValueAsBytes(tree), rev);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }
}
