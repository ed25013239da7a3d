package io.watchgate.objects;

import io.watchgate.status.ApiException;
import io.watchgate.store.StoreException;
import java.util.function.Supplier;

/**
 * Bounded retries of a write that lost a race. A write reads the newest state, computes from it and submits on the
 * condition that the state is unchanged; when another writer got there first, the store refuses it at once (before
 * the write is taken, so nothing waits) and the write is computed again from the new state. A key written without
 * pause by others could starve a writer for ever, so after {@link #MAX_ATTEMPTS} the writer gives up with what
 * kube-apiserver answers for a conflict it does not resolve: 409 Conflict, "the object has been modified".
 */
final class Contention {

    /** Each attempt costs a read and a computation, no wait: a writer that loses this often is starved, not unlucky. */
    static final int MAX_ATTEMPTS = 16;

    private Contention() {
    }

    /**
     * Runs {@code attempt} again each time the object it read changed before its write was taken (a revision
     * conflict, or the object gone: the next attempt reads that and answers for it).
     *
     * @param group, resource and name: the object the 409 names when every attempt lost
     */
    static <T> T retry(String group, String resource, String name, Supplier<T> attempt) {
        for (int attempts = 1;; attempts++) {
            try {
                return attempt.get();
            } catch (StoreException.RevisionConflict | StoreException.KeyNotFound e) {
                if (attempts == MAX_ATTEMPTS) {
                    throw ApiException.conflict(group, resource, name);
                }
            }
        }
    }
}
