package io.watchgate.store;

/** What a mutation requires of the state it commits on: its key's precondition, and its guards. */
public final class Preconditions {

    private Preconditions() {
    }

    /**
     * @param current the newest state of the mutation's key, or null
     * @throws StoreException.KeyExists, KeyNotFound or RevisionConflict when {@code current} does not fit
     */
    public static void check(Mutation mutation, StoredObject current) {
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

    /**
     * @param value the newest state of the guard's key, or null
     * @throws StoreException.GuardChanged when it is not at the guard's revision
     */
    public static void checkGuard(Mutation.Guard guard, StoredObject value) {
        if (value == null || value.revision() != guard.revision()) {
            throw new StoreException.GuardChanged(guard.key());
        }
    }
}
