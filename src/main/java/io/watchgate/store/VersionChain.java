package io.watchgate.store;

/**
 * All retained versions of one key. Readers walk it without locks; only the committer (holding the commit
 * lock) replaces the head or cuts the tail.
 */
final class VersionChain {
    private volatile Version head;

    VersionChain(Version head) {
        this.head = head;
    }

    Version head() {
        return head;
    }

    /** The live value at {@code atRevision}, or null when absent or deleted then. */
    StoredObject valueAt(long atRevision) {
        Version head = this.head;
        Version v = head == null ? null : head.visibleAt(atRevision);
        return v == null ? null : v.value;
    }

    void push(long revision, StoredObject value) {
        head = new Version(revision, value, head);
    }

    /**
     * Drops every version that no read at {@code oldestReadable} or later can see.
     *
     * @return true when nothing readable is left (the key was deleted at or before that revision)
     */
    boolean compact(long oldestReadable) {
        Version v = head.visibleAt(oldestReadable);
        if (v == null) {
            return false;
        }
        v.older = null;
        return v == head && v.value == null;
    }
}
