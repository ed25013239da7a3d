package io.watchgate.objects;

import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.watchgate.status.ApiException;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 *
 * <p>A replica's cache of etcd may not hold yet what another replica just wrote: a write that found its object
 * missing (404) or at another resourceVersion than the client's (409) is tried once more after the store holds
 * everything committed before ({@link Store#consistentRevision}), as kube-apiserver reads etcd when its cache has
 * no object to update. A store that orders its own writes is consistent at once, and answers as before.
 */
final class Contention {

    /** Each attempt costs a read and a computation, no wait: a writer that loses this often is starved, not unlucky. */
    static final int MAX_ATTEMPTS = 16;
    /** How long a stale read's retry waits for the store to catch up, at most; then the refusal stands. */
    private static final Duration CATCH_UP = Duration.ofSeconds(5);

    private Contention() {
    }

    /**
     * Runs {@code attempt} again each time the object it read changed before its write was taken (a revision
     * conflict, or the object gone: the next attempt reads that and answers for it).
     *
     * @param group, resource and name: the object the 409 names when every attempt lost
     */
    static <T> CompletableFuture<T> retry(Store store, String group, String resource, String name,
            Supplier<? extends CompletionStage<T>> attempt) {
        return retry(store, group, resource, name, Contention::objectChanged, attempt);
    }

    /** Runs {@code attempt} again each time a key its write was guarded by changed before the write was taken. */
    static <T> CompletableFuture<T> retryOnGuard(Store store, String group, String resource, String name,
            Supplier<? extends CompletionStage<T>> attempt) {
        return retry(store, group, resource, name, failure -> failure instanceof StoreException.GuardChanged,
                attempt);
    }

    private static boolean objectChanged(Throwable failure) {
        return failure instanceof StoreException.RevisionConflict || failure instanceof StoreException.KeyNotFound;
    }

    private static <T> CompletableFuture<T> retry(Store store, String group, String resource, String name,
            Predicate<Throwable> lost, Supplier<? extends CompletionStage<T>> attempt) {
        return attempt(1, new Race<>(store, group, resource, name, lost, attempt, new AtomicBoolean()));
    }

    /** @param settled whether the store was made to catch up once already */
    private record Race<T>(Store store, String group, String resource, String name, Predicate<Throwable> lost,
            Supplier<? extends CompletionStage<T>> attempt, AtomicBoolean settled) {
    }

    /** A refusal computed from the object as read (missing, or at another resourceVersion than the client's). */
    private static boolean fromWhatWasRead(Throwable failure) {
        return failure instanceof ApiException e && (e.code() == 404 || e.code() == 409);
    }

    /**
     * When {@code failure} may come from a stale read: once the store has caught up, the attempt again (on a worker);
     * else null, and the failure stands.
     */
    private static <T> CompletableFuture<T> afterCatchingUp(Throwable failure, int attempts, Race<T> race) {
        if (!fromWhatWasRead(failure) || !race.settled().compareAndSet(false, true)) {
            return null;
        }
        CompletableFuture<Long> caughtUp = race.store().consistentRevision();
        if (caughtUp.isDone()) {
            return null; // it held everything already: what was read was current
        }
        CompletableFuture<T> again = new CompletableFuture<>();
        caughtUp.orTimeout(CATCH_UP.toMillis(), TimeUnit.MILLISECONDS).whenCompleteAsync((at, late) -> {
            if (late != null) {
                again.completeExceptionally(failure);
                return;
            }
            forward(again, () -> attempt(attempts, race));
        }, Infrastructure.getDefaultWorkerPool());
        return again;
    }

    private static <T> void forward(CompletableFuture<T> to, Supplier<CompletableFuture<T>> from) {
        try {
            from.get().whenComplete((value, failure) -> {
                if (failure == null) {
                    to.complete(value);
                } else {
                    to.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException e) {
            to.completeExceptionally(e);
        }
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
            } catch (ApiException e) {
                CompletableFuture<T> again = afterCatchingUp(e, attempts, race);
                if (again == null) {
                    throw e;
                }
                return again;
            }
            int made = attempts;
            CompletableFuture<T> answer = new CompletableFuture<>();
            result.whenComplete((value, failure) -> {
                Throwable cause = failure instanceof CompletionException c && c.getCause() != null ? c.getCause()
                        : failure;
                if (failure == null) {
                    answer.complete(value);
                } else if (!race.lost().test(cause)) {
                    CompletableFuture<T> again = afterCatchingUp(cause, made, race);
                    if (again == null) {
                        answer.completeExceptionally(cause);
                    } else {
                        forward(answer, () -> again);
                    }
                } else if (made == MAX_ATTEMPTS) {
                    answer.completeExceptionally(ApiException.conflict(race.group(), race.resource(), race.name()));
                } else {
                    Infrastructure.getDefaultWorkerPool().execute(() -> forward(answer,
                            () -> attempt(made + 1, race)));
                }
            });
            return answer;
        }
    }
}
