package io.watchgate.store;

/**
 * One link of a key's version chain, newest first. {@code value == null} is a tombstone (the key was deleted
 * at {@code revision}). Only {@link #older} ever changes, and only to cut history off at compaction.
 */
final class Version {
    final long revision;
    final StoredObject value;
    volatile Version older;

    Version(long revision, StoredObject value, Version older) {
        this.revision = revision;
        this.value = value;
        this.older = older;
    }

    /** The newest version at or before {@code atRevision} in the chain that starts here, or null. */
    Version visibleAt(long atRevision) {
        Version v = this;
        while (v != null && v.revision > atRevision) {
            v = v.older;
        }
        return v;
    }
}
