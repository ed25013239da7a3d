package io.watchgate.objects;

import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Writes one after another, each once the one before counts, and no thread held while one waits for the disk: what
 * deleting a namespace's contents or a deletecollection does, one revision per object. One at a time, as the
 * blocking loop did, so that a long list never has more than one of its writes in the store's bounded queue.
 */
final class InOrder {

    private InOrder() {
    }

    /**
     * Calls {@code step} for each item, the next once the previous one's write completed; fails with the first
     * failure, leaving the rest undone.
     *
     * @param resumeOn where the loop goes on after a write that had to wait: a durable write completes on the log's
     *                 thread, which must only ever sync, and a step may list what it writes
     */
    static <T> CompletableFuture<Void> forEach(Iterator<T> items, Function<T, ? extends CompletionStage<?>> step,
            Executor resumeOn) {
        Loop<T> loop = new Loop<>(items, step, resumeOn);
        loop.run();
        return loop.done;
    }

    private static final class Loop<T> implements Runnable {
        private final Iterator<T> items;
        private final Function<T, ? extends CompletionStage<?>> step;
        private final Executor resumeOn;
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Loop(Iterator<T> items, Function<T, ? extends CompletionStage<?>> step, Executor resumeOn) {
            this.items = items;
            this.step = step;
            this.resumeOn = resumeOn;
        }

        @Override
        public void run() {
            try {
                // writes that count at once (memory mode) go on in this loop, not as nested callbacks: no deep stacks
                while (items.hasNext()) {
                    CompletableFuture<?> written = step.apply(items.next()).toCompletableFuture();
                    if (!written.isDone()) {
                        written.whenCompleteAsync((result, failure) -> {
                            if (failure != null) {
                                done.completeExceptionally(unwrapped(failure));
                            } else {
                                run();
                            }
                        }, resumeOn).exceptionally(refused -> {
                            // the executor would not take the rest (shutting down): say so rather than never answer
                            done.completeExceptionally(unwrapped(refused));
                            return null;
                        });
                        return;
                    }
                    written.join(); // throws what refused it
                }
                done.complete(null);
            } catch (Throwable failure) {
                done.completeExceptionally(unwrapped(failure));
            }
        }
    }

    static Throwable unwrapped(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
