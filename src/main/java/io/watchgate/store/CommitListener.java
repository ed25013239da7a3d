package io.watchgate.store;

/**
 * Told of every committed event, once, in revision order, while the commit still holds the commit lock:
 * an implementation must hand the event on and return at once.
 */
@FunctionalInterface
public interface CommitListener {
    void committed(ChangeEvent event);

    /** A listener's place on a store: closing it stops the listener being told, from the next commit on. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
