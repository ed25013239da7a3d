package io.watchgate.store;

import java.util.List;

/**
 * Told of every committed event, once, in revision order, while the commit still holds the commit lock:
 * an implementation must hand the event on and return at once.
 */
@FunctionalInterface
public interface CommitListener {
    void committed(ChangeEvent event);

    /**
     * The store's state was replaced at {@code revision} by one read anew (a cache fed by etcd relisting after etcd
     * compacted what it had not read yet): {@code changes} take each object that differs from its old state to its
     * new one, all at {@code revision}, and are in no history. A listener that keeps what it derived from objects
     * is told them as commits, by default; one that serves history cannot serve it across the gap.
     */
    default void replaced(long revision, List<ChangeEvent> changes) {
        changes.forEach(this::committed);
    }

    /** A listener's place on a store: closing it stops the listener being told, from the next commit on. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
