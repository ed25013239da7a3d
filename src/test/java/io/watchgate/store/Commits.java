package io.watchgate.store;

import java.util.concurrent.CompletionException;

/**
 * For tests that write to a store directly: submits a mutation and waits until it counts, throwing what refused it.
 * The server never waits so (a write holds no thread, see {@link Store#submit}); a test may.
 */
public final class Commits {

    private Commits() {
    }

    public static ChangeEvent commit(Store store, Mutation mutation) {
        try {
            return store.submit(mutation).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof StoreException failure ? failure
                    : new StoreException.Unavailable("the write could not be made durable: " + e.getCause());
        }
    }
}
