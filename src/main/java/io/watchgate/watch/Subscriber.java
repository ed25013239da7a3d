package io.watchgate.watch;

import io.watchgate.store.KeyRange;
import io.watchgate.store.ObjectKey;
import java.util.List;

/**
 * What an event loop serves: one client's watching, which the loop offers the committed events of the resources it
 * watches, in revision order, and whose timers it keeps. A single watch ({@link Watcher}) or a stream of many
 * ({@code io.watchgate.watch.stream.WatchStream}). Loop thread only.
 */
public interface Subscriber {

    enum TimerKind { END, BOOKMARK, HEARTBEAT }

    /** The resource of each of its watches, one entry per watch: what the loop offers it, and counts. */
    List<String> watchedResources();

    /**
     * The one object it watches, when it is a single watch that can see only that object: the loop then offers it
     * that object's events alone, found by key, rather than every event of the resource. Null otherwise.
     */
    default ObjectKey onlyObject() {
        return null;
    }

    /**
     * The one namespace of one resource it watches, when it is a single watch of a namespaced resource within one
     * namespace that is not {@link #onlyObject of one object}: the loop then offers it that namespace's events alone,
     * rather than every event of the resource. Null otherwise.
     */
    default KeyRange onlyNamespace() {
        return null;
    }

    /** How it travels, as metrics tell watches apart (see {@link WatchSink#form()}). */
    String form();

    /** Starts it: the store has reached the revision it requires. */
    void start();

    /**
     * An event as its loop fans it out, in revision order.
     *
     * @return whether something was written to its client (the loop counts them once per event)
     */
    boolean offer(EncodedEvent event);

    void onTimer(TimerKind kind);

    /** Ends it cleanly. */
    void end();

    /** The server is short of memory, and its client is not reading: it is dropped, and comes back later. */
    void endForMemory();

    /** Something went wrong serving it: it is dropped, and the others go on. */
    void fail(RuntimeException e);

    /** The store's state was replaced at {@code revision}: its client must relist. */
    void stateReplaced(long revision);

    /** Permissions may have been taken away: what its user may no longer watch ends. */
    void recheckGrants();

    boolean hasEnded();

    /** Runs {@code task}, failing this subscriber alone if it throws (what a drain runs, through {@link Stall}). */
    void guarded(Runnable task);
}
