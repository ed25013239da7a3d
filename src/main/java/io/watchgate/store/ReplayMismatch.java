package io.watchgate.store;

/**
 * A change replayed into a store (from a snapshot's history or the log) that cannot follow what the store holds: a
 * revision out of sequence, an ADDED of an object that exists, a MODIFIED or DELETED of one that does not. Whoever
 * replays says where it read it.
 */
public final class ReplayMismatch extends IllegalStateException {

    public ReplayMismatch(String message) {
        super(message);
    }
}
