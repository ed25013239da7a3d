package io.watchgate.watch;

/**
 * What a watcher needs from the event loop that serves it. Every call happens on that loop's thread.
 */
public interface WatchLoop {

    /** The newest revision this loop has fanned out: a live watcher has been offered every event up to it. */
    long lastRevision();

    /**
     * Runs {@code task} on this loop later, in turn with the other watchers' long work and after the loop's other
     * clients: how long work yields.
     */
    void runSoon(Runnable task);

    /** Calls {@link Watcher#onTimer} with {@code kind} after {@code delayMillis}, on a timer shared by the loop. */
    void schedule(Watcher watcher, Watcher.TimerKind kind, long delayMillis);

    /** Counts events (ADDED, MODIFIED, DELETED) a watcher wrote to its client from a snapshot or history. */
    default void eventsSent(int events) {
    }

    /** Counts a BOOKMARK written to a client. */
    default void bookmarkSent() {
    }

    /**
     * {@code watcher} waits for its client to take up about {@code bytes} queued for it, until
     * {@link #unpinned}: they count against the server's memory budget meanwhile.
     */
    default void pinned(Watcher watcher, long bytes) {
    }

    /** {@code watcher}'s client took up what was queued for it (also implied by {@link #detach}). */
    default void unpinned(Watcher watcher) {
    }

    /** Forgets the watcher and its timers; {@code slow} when it was ended for falling behind. */
    void detach(Watcher watcher, boolean slow);
}
