package io.watchgate.objects;

import io.watchgate.status.ApiException;
import io.watchgate.store.Store;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes a read for a resourceVersion the store has not reached yet wait a little for it, then answer 504 "Too
 * large resource version", as kube-apiserver does. Called on worker threads only.
 */
@ApplicationScoped
public class RevisionWait {

    private final Store store;
    private final ReadConfig config;

    RevisionWait(Store store, ReadConfig config) {
        this.store = store;
        this.config = config;
    }

    /**
     * Waits until the store holds every write committed before this call ({@link Store#consistentRevision}): what
     * a read of the most recent state (no resourceVersion) needs; as long as a resourceVersion is waited for, then
     * 504. The store's current revision is then such a state.
     */
    public void awaitConsistent() {
        CompletableFuture<Long> consistent = store.consistentRevision();
        if (consistent.isDone() && !consistent.isCompletedExceptionally()) {
            return;
        }
        try {
            consistent.get(config.resourceVersionWait().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ApiException(504, "Timeout", "the store did not reach its storage's current revision in "
                    + config.resourceVersionWait().toMillis() + " ms; try again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(504, "Timeout", "interrupted while waiting for the current revision");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            consistent.cancel(false);
        }
    }

    public void awaitAtLeast(long revision) {
        if (store.currentRevision() >= revision) {
            return;
        }
        CompletableFuture<Long> reached = store.awaitRevision(revision);
        try {
            reached.get(config.resourceVersionWait().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw ApiException.tooLargeResourceVersion(revision, store.currentRevision());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.tooLargeResourceVersion(revision, store.currentRevision());
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            reached.cancel(false);
        }
    }
}
