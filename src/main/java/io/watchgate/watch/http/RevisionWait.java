package io.watchgate.watch.http;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.watchgate.objects.ReadConfig;
import io.watchgate.status.ApiException;
import io.watchgate.store.Store;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** A watch from a resourceVersion the store has not reached yet waits for it, as a list would, for a while. */
@ApplicationScoped
public class RevisionWait {

    private final Store store;
    private final ReadConfig reads;

    RevisionWait(Store store, ReadConfig reads) {
        this.store = store;
        this.reads = reads;
    }

    /**
     * Runs {@code then} on this event loop once the store has reached {@code revision}, or {@code otherwise} with
     * 504 "Too large resource version" after the configured wait, as a list would answer.
     */
    void whenStoreReaches(long revision, Runnable then, Consumer<ApiException> otherwise) {
        if (store.currentRevision() >= revision) {
            then.run();
            return;
        }
        Context here = Vertx.currentContext();
        AtomicBoolean settled = new AtomicBoolean();
        CompletableFuture<Long> reached = store.awaitRevision(revision);
        long timer = here.owner().setTimer(reads.resourceVersionWait().toMillis(), id -> {
            if (settled.compareAndSet(false, true)) {
                reached.cancel(false);
                otherwise.accept(ApiException.tooLargeResourceVersion(revision, store.currentRevision()));
            }
        });
        reached.thenRun(() -> here.runOnContext(v -> {
            if (settled.compareAndSet(false, true)) {
                here.owner().cancelTimer(timer);
                then.run();
            }
        }));
    }
}
