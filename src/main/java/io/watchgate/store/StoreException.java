package io.watchgate.store;

/** Why the store refused a read or a write. The HTTP layer turns each into a Kubernetes Status. */
public abstract sealed class StoreException extends RuntimeException {

    StoreException(String message) {
        super(message, null, false, false);
    }

    /** A create found the key already present. */
    public static final class KeyExists extends StoreException {
        public KeyExists(ObjectKey key) {
            super("key exists: " + key);
        }
    }

    /** An update or delete found no live object at the key. */
    public static final class KeyNotFound extends StoreException {
        public KeyNotFound(ObjectKey key) {
            super("key not found: " + key);
        }
    }

    /** An update or delete expected a revision the key is no longer at. */
    public static final class RevisionConflict extends StoreException {
        private final StoredObject current;

        public RevisionConflict(StoredObject current) {
            super("revision conflict on " + current.key() + ": now at " + current.revision());
            this.current = current;
        }

        public StoredObject current() {
            return current;
        }
    }

    /** The key a mutation was guarded by changed or went away. */
    public static final class GuardChanged extends StoreException {
        public GuardChanged(ObjectKey guard) {
            super("guard changed: " + guard);
        }
    }

    /** A read asked for a revision older than the retained history. */
    public static final class Compacted extends StoreException {
        private final long requested;
        private final long oldest;

        public Compacted(long requested, long oldest) {
            super("revision " + requested + " has been compacted; oldest retained is " + oldest);
            this.requested = requested;
            this.oldest = oldest;
        }

        public long requested() {
            return requested;
        }

        public long oldest() {
            return oldest;
        }
    }

    /** A read asked for a revision the store has not reached. */
    public static final class FutureRevision extends StoreException {
        public FutureRevision(long requested, long current) {
            super("revision " + requested + " is newer than the store's " + current);
        }
    }

    /**
     * The server is short of memory and takes no writes for now; nothing changed, and the same write may succeed
     * after {@link #retryAfterSeconds()}.
     */
    public static final class Overloaded extends StoreException {
        private final int retryAfterSeconds;

        public Overloaded(String message, int retryAfterSeconds) {
            super(message);
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public int retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }

    /**
     * The store's storage did not answer a write in time (etcd): it may or may not have been made. Not to be retried
     * blindly; the client reads to find out.
     */
    public static final class Uncertain extends StoreException {
        public Uncertain(String message) {
            super(message);
        }
    }

    /** The object is larger than the store's storage takes (etcd's request limit): nothing changed. */
    public static final class TooLarge extends StoreException {
        public TooLarge(String message) {
            super(message);
        }
    }

    /** The store cannot take writes now (the log could not be written); reads still work. */
    public static final class Unavailable extends StoreException {
        public Unavailable(String message) {
            super(message);
        }
    }
}
