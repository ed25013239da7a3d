package io.watchgate.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A write to one key, committed atomically with a precondition.
 *
 * @param object           the new state (ownership passes to the store); null for a delete
 * @param expectedRevision for updates and deletes, the revision the key must still be at; 0 for any
 * @param guards           other keys that must not have changed, checked in the same atomic step
 */
public record Mutation(Op op, ObjectKey key, ObjectNode object, long expectedRevision, List<Guard> guards) {

    public enum Op {
        CREATE, UPDATE, DELETE
    }

    /**
     * Another key that must still be live at exactly {@code revision} when the mutation commits, checked in
     * the same atomic step (as a compare in an etcd transaction): a create is guarded by its namespace, and a
     * custom object's create by its definition.
     */
    public record Guard(ObjectKey key, long revision) {
    }

    public static Mutation create(ObjectKey key, ObjectNode object) {
        return new Mutation(Op.CREATE, key, object, 0, List.of());
    }

    public static Mutation update(ObjectKey key, ObjectNode object, long expectedRevision) {
        return new Mutation(Op.UPDATE, key, object, expectedRevision, List.of());
    }

    public static Mutation delete(ObjectKey key, long expectedRevision) {
        return new Mutation(Op.DELETE, key, null, expectedRevision, List.of());
    }

    public Mutation guardedBy(ObjectKey guardKey, long guardRevision) {
        List<Guard> more = new ArrayList<>(guards);
        more.add(new Guard(guardKey, guardRevision));
        return new Mutation(op, key, object, expectedRevision, List.copyOf(more));
    }
}
