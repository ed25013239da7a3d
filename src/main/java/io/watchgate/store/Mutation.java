package io.watchgate.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A write to one key, committed atomically with a precondition.
 *
 * @param object           the new state (ownership passes to the store); null for a delete
 * @param expectedRevision for updates and deletes, the revision the key must still be at; 0 for any
 */
public record Mutation(Op op, ObjectKey key, ObjectNode object, long expectedRevision) {

    public enum Op {
        CREATE, UPDATE, DELETE
    }

    public static Mutation create(ObjectKey key, ObjectNode object) {
        return new Mutation(Op.CREATE, key, object, 0);
    }

    public static Mutation update(ObjectKey key, ObjectNode object, long expectedRevision) {
        return new Mutation(Op.UPDATE, key, object, expectedRevision);
    }

    public static Mutation delete(ObjectKey key, long expectedRevision) {
        return new Mutation(Op.DELETE, key, null, expectedRevision);
    }
}
