package io.watchgate.garbagecollector;

import io.watchgate.status.ApiException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The collector's writes: a few at a time, so that thousands of dependents go as fast as the store takes them
 * without crowding out other clients' writes. A write that lost a race is judged again at once, from the newer
 * state; one refused otherwise (the store unavailable, say) is judged again later, from a second on and doubling up
 * to a minute.
 */
final class CollectorWrites {

    private static final Logger LOG = Logger.getLogger(CollectorWrites.class);
    static final int IN_FLIGHT = 16;
    private static final long FIRST_RETRY_MILLIS = 1000;
    private static final long LAST_RETRY_MILLIS = 60_000;

    private final Semaphore inFlight = new Semaphore(IN_FLIGHT);
    /** Work judged again after a failure, and how often it failed in a row: no more entries than work waiting. */
    private final Map<Work, Integer> failures = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final Consumer<Work> again;

    /** @param again where work to be judged again goes (the collector's mail), from any thread */
    CollectorWrites(ScheduledExecutorService timer, Consumer<Work> again) {
        this.timer = timer;
        this.again = again;
    }

    /**
     * Starts {@code write} for {@code work} once fewer than {@link #IN_FLIGHT} are under way (waiting for one to
     * end meanwhile); when it has counted, {@code then} runs. A 404 ends the work: the object went by other hands.
     */
    void start(Work work, Supplier<CompletableFuture<?>> write, Runnable then) throws InterruptedException {
        inFlight.acquire();
        CompletableFuture<?> started;
        try {
            started = write.get();
        } catch (RuntimeException refused) {
            started = CompletableFuture.failedFuture(refused);
        }
        started.whenComplete((done, failure) -> {
            inFlight.release();
            Throwable cause = cause(failure);
            if (failure == null) {
                failures.remove(work);
                then.run();
            } else if (cause instanceof ApiException e && e.code() == 404) {
                failures.remove(work);
            } else if (cause instanceof ApiException e && e.code() == 409) {
                again.accept(work); // the object changed since it was judged: judged again, as it is now
            } else {
                retryLater(work, cause.getMessage());
            }
        });
    }

    /** Judges {@code work} again after a while, longer after each failure in a row. */
    void retryLater(Work work, String why) {
        int failed = failures.merge(work, 1, Integer::sum);
        long delay = Math.min(LAST_RETRY_MILLIS, FIRST_RETRY_MILLIS << Math.min(failed - 1, 6));
        LOG.debugf("garbage collection of %s put off (%s): judged again in %d ms", work.key(), why, delay);
        timer.schedule(() -> again.accept(work), delay, TimeUnit.MILLISECONDS);
    }

    /** {@code work} was judged and needs nothing more: its failures are forgotten. */
    void settled(Work work) {
        failures.remove(work);
    }

    private static Throwable cause(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    void forgetFailures() {
        failures.clear();
    }
}
