package io.watchgate.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A write to one key, committed atomically with a precondition.
 *
 * @param object           the new state (ownership passes to the store); null for a delete
 * @param expectedRevision for updates and deletes, the revision the key must still be at; 0 for any
 */
public record Mutation(Op op, ObjectKey key, ObjectNode object, long expectedRevision, Guard guard) {

    public enum Op {
        CREATE, UPDATE, DELETE
    }

    /**
     * A second key that must still be live at exactly {@code revision} when the mutation commits, checked in
     * the same atomic step (as a compare in an etcd transaction): a create is guarded by its namespace.
     */
    public record Guard(ObjectKey key, long revision) {
    }

    public static Mutation create(ObjectKey key, ObjectNode object) {
        return new Mutation(Op.CREATE, key, object, 0, null);
    }

    public static Mutation update(ObjectKey key, ObjectNode object, long expectedRevision) {
        return new Mutation(Op.UPDATE, key, object, expectedRevision, null);
    }

    public static Mutation delete(ObjectKey key, long expectedRevision) {
        return new Mutation(Op.DELETE, key, null, expectedRevision, null);
    }

    public Mutation guardedBy(ObjectKey guardKey, long guardRevision) {
        return new Mutation(op, key, object, expectedRevision, new Guard(guardKey, guardRevision));
    }
}
