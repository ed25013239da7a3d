package io.watchgate.watch;

/**
 * What a subscriber (a watch, or a stream of watches) needs from the event loop that serves it. Every call happens on
 * that loop's thread.
 */
public interface WatchLoop {

    /**
     * The newest revision this loop has fanned out: a live watcher has been offered every event up to it that
     * concerns it (of its resources; of its one namespace or object, for a watcher of one namespace or object).
     */
    long lastRevision();

    /**
     * Runs {@code task} on this loop later, in turn with the other watchers' long work and after the loop's other
     * clients: how long work yields.
     */
    void runSoon(Runnable task);

    /** Calls {@link Subscriber#onTimer} with {@code kind} after {@code delayMillis}, on a timer shared by the loop. */
    void schedule(Subscriber subscriber, Subscriber.TimerKind kind, long delayMillis);

    /** Counts events (ADDED, MODIFIED, DELETED) a watcher wrote to its client from a snapshot or history. */
    default void eventsSent(int events) {
    }

    /** Counts coalesced events written to a stream's client (see {@code Coalescer}). */
    default void coalescedSent(int events) {
    }

    /** Counts a BOOKMARK written to a client. */
    default void bookmarkSent() {
    }

    /**
     * {@code subscriber} waits for its client to take up about {@code bytes} queued for it, until
     * {@link #unpinned}: they count against the server's memory budget meanwhile.
     */
    default void pinned(Subscriber subscriber, long bytes) {
    }

    /** {@code subscriber}'s client took up what was queued for it (also implied by {@link #detach}). */
    default void unpinned(Subscriber subscriber) {
    }

    /** Forgets the subscriber and its timers; {@code slow} when it was ended for falling behind. */
    void detach(Subscriber subscriber, boolean slow);

    /**
     * {@code subscriber} added a watch of {@code resource} (admitted already): its events are offered to it from now
     * on, and it counts as an open watch.
     */
    default void watchAdded(Subscriber subscriber, String resource) {
    }

    /**
     * One of {@code subscriber}'s watches, of {@code resource}, ended while the others go on: its
     * {@link Subscriber#watchedResources()} no longer list it.
     */
    default void watchEnded(Subscriber subscriber, String resource) {
    }
}
