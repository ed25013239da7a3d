package io.watchgate.store;

/**
 * Makes a committed (and, in durable mode, durable) event visible, in this order: room in the history, the
 * version and its published revision, then the listeners, then the readers waiting for the revision, who may
 * read at once what they waited for. Commit lock held.
 */
final class Installer {

    private final Compaction compaction;
    private final MvccIndex index;
    private final CommitListeners listeners;
    private final RevisionWaiters waiters;

    Installer(Compaction compaction, MvccIndex index, CommitListeners listeners, RevisionWaiters waiters) {
        this.compaction = compaction;
        this.index = index;
        this.listeners = listeners;
        this.waiters = waiters;
    }

    void install(ChangeEvent event) {
        compaction.makeRoom();
        index.apply(event);
        listeners.tell(event);
        waiters.release(event.revision());
    }
}
