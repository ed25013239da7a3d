package io.watchgate.objects;

import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.watchgate.status.ApiException;
import io.watchgate.store.StoreException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Bounded retries of a write that lost a race. A write reads the newest state, computes from it and submits on the
 * condition that the state is unchanged; when another writer got there first, the store refuses it, and the write
 * is computed again from the new state. The embedded store refuses at once (before the write is taken, so nothing
 * waits); a store shared by replicas (etcd) may refuse later, through the write's future, once it holds what won,
 * and the retry then runs on a worker thread. A key written without pause by others could starve a writer for
 * ever, so after {@link #MAX_ATTEMPTS} the writer gives up with what kube-apiserver answers for a conflict it does not
 * resolve: 409 Conflict, "the object has been modified".
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
    static <T> CompletableFuture<T> retry(String group, String resource, String name,
            Supplier<? extends CompletionStage<T>> attempt) {
        return retry(group, resource, name, Contention::objectChanged, attempt);
    }

    /** Runs {@code attempt} again each time a key its write was guarded by changed before the write was taken. */
    static <T> CompletableFuture<T> retryOnGuard(String group, String resource, String name,
            Supplier<? extends CompletionStage<T>> attempt) {
        return retry(group, resource, name, failure -> failure instanceof StoreException.GuardChanged, attempt);
    }

    private static boolean objectChanged(Throwable failure) {
        return failure instanceof StoreException.RevisionConflict || failure instanceof StoreException.KeyNotFound;
    }

    private static <T> CompletableFuture<T> retry(String group, String resource, String name,
            Predicate<Throwable> lost, Supplier<? extends CompletionStage<T>> attempt) {
        return attempt(1, new Race<>(group, resource, name, lost, attempt));
    }

    private record Race<T>(String group, String resource, String name, Predicate<Throwable> lost,
            Supplier<? extends CompletionStage<T>> attempt) {
    }

    /** Attempts from {@code first} on: at once while the store refuses at once, then on its future's failure. */
    private static <T> CompletableFuture<T> attempt(int first, Race<T> race) {
        for (int attempts = first;; attempts++) {
            CompletableFuture<T> result;
            try {
                result = race.attempt().get().toCompletableFuture();
            } catch (StoreException e) {
                if (!race.lost().test(e)) {
                    throw e;
                }
                if (attempts == MAX_ATTEMPTS) {
                    throw ApiException.conflict(race.group(), race.resource(), race.name());
                }
                continue;
            }
            int made = attempts;
            CompletableFuture<T> answer = new CompletableFuture<>();
            result.whenComplete((value, failure) -> {
                Throwable cause = failure instanceof CompletionException c && c.getCause() != null ? c.getCause()
                        : failure;
                if (failure == null) {
                    answer.complete(value);
                } else if (!race.lost().test(cause)) {
                    answer.completeExceptionally(cause);
                } else if (made == MAX_ATTEMPTS) {
                    answer.completeExceptionally(ApiException.conflict(race.group(), race.resource(), race.name()));
                } else {
                    Infrastructure.getDefaultWorkerPool().execute(() -> {
                        try {
                            attempt(made + 1, race).whenComplete((again, fails) -> {
                                if (fails == null) {
                                    answer.complete(again);
                                } else {
                                    answer.completeExceptionally(fails);
                                }
                            });
                        } catch (RuntimeException e) {
                            answer.completeExceptionally(e);
                        }
                    });
                }
            });
            return answer;
        }
    }
}
