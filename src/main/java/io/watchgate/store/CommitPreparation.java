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
        Preconditions.check(mutation, current);
        for (Mutation.Guard guard : mutation.guards()) {
            Preconditions.checkGuard(guard, inFlight.newest(guard.key()));
        }
        boolean delete = mutation.op() == Mutation.Op.DELETE;
        Prestamped ready = prestamped != null && (!delete || prestamped.basis() == current) ? prestamped : null;
        ObjectNode tree = ready != null ? ready.tree() : delete ? current.tree().deepCopy() : mutation.object();
        StoredObject stored = stamp(key, tree, next, ready);
        EventType type = delete ? EventType.DELETED : current == null ? EventType.ADDED : EventType.MODIFIED;
        return new ChangeEvent(next, type, stored, current, clock.millis());
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
