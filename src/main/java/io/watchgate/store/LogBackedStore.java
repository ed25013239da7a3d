package io.watchgate.store;

/**
 * What a store whose writes count once a {@link CommitLog} has them offers the log's owner: recovery (restore, then
 * replay), the log itself, and the state to write a snapshot of.
 */
public interface LogBackedStore {

    /** The revision of the newest installed event. */
    long currentRevision();

    /**
     * Recovery: starts an empty, unused store at the state of {@code revision}: the objects live then, with no
     * history before it.
     */
    void restore(long revision, Iterable<StoredObject> state);

    /**
     * Recovery: applies one recorded event, which must be the next revision, as its commit did (history,
     * compaction, listeners) and without checking it again.
     *
     * @param object the stored state after the event; for DELETED, the last state stamped with its revision
     */
    void replay(long revision, EventType type, StoredObject object, long committedAtMillis);

    /**
     * From now on a commit counts once {@code log} has it, and the log reports to the returned sink. Called
     * once, after recovery and before the first commit.
     */
    CommitLog.Sink useLog(CommitLog log);

    /**
     * The revision, the retained events and the objects live at it, read consistently, holding the commit lock
     * only to fix the revision.
     *
     * @throws StoreException.Compacted if the revision is compacted while the objects are read (try again)
     */
    SnapshotView snapshotView();
}
