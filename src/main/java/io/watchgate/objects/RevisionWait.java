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
