package io.watchgate.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.watchgate.http.TooLongForAnEventLoop;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.StoreException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Where a create, update or patch is computed. A small one stays on the event loop that took it: nothing in it
 * blocks, and a thread hop would cost the fast path more than the write itself. One whose body, or whose stored
 * object, is larger than {@code watchgate.api.inline-write-bytes} is parsed, validated, patched and answered on
 * a worker thread instead: each of those steps is linear, but linear in 3 MiB is tens of milliseconds, which no
 * other client of that event loop should wait. Either way the store sequences the write: only the thread that
 * computes it differs.
 */
@ApplicationScoped
public class WritePlacement {

    /**
     * A write's working memory, reserved in the memory budget before it starts, at this many times its size: the
     * tree of the densest JSON ({@code [{},{},...]}) takes about 25 times its bytes (an estimate from the sizes of
     * its nodes), and while a write is checked and patched it holds its new tree beside the stored one, then its
     * bytes; recording its managedFields allocates 30 to 40 times the object's bytes more for an object of many
     * small fields (measured on a ConfigMap of 80,000 keys: the change as a field set, the entries, their JSON).
     */
    static final int WORKING_MEMORY_FACTOR = 48;
    /**
     * Writes being computed may reserve this part of the memory budget together (one alone may take more): a
     * bound of their own, apart from the budget's limit, so that what others keep (history, stalled watchers) never
     * refuses every write, which would keep those others from ever being shed.
     */
    static final int WORKING_MEMORY_SHARE = 4;

    private final long inlineBytes;
    private final Counter offloaded;
    private final MemoryBudget budget;

    WritePlacement(ApiConfig config, MeterRegistry registry, MemoryBudget budget) {
        this.budget = budget;
        this.inlineBytes = config.inlineWriteBytes();
        this.offloaded = Counter.builder("watchgate.writes.offloaded")
                .description("writes computed on a worker thread for the size of their body or stored object")
                .register(registry);
    }

    /**
     * Runs {@code write} where its size says, once its working memory is reserved in the memory budget (429 with
     * Retry-After when the writes being computed hold their share of it already); a small one that finds part way
     * that it would hold the event loop too long ({@link TooLongForAnEventLoop}) is run again on a worker.
     *
     * @param bytes the larger of the request body and the stored object the write starts from
     * @param write the write and its answer; on a worker thread it answers there too ({@code ResourceVerbs.answer})
     */
    Uni<Response> run(long bytes, Supplier<Uni<Response>> write) {
        long working = bytes * WORKING_MEMORY_FACTOR;
        if (!budget.tryReserve(MemoryBudget.Use.COMPUTING, working, budget.limit() / WORKING_MEMORY_SHARE)) {
            throw new StoreException.Overloaded("the server is short of memory for a write of " + bytes
                    + " bytes now; try again later", budget.retryAfterSeconds());
        }
        Reservation reservation = new Reservation(working);
        Uni<Response> placed;
        try {
            placed = place(bytes, write, reservation);
        } catch (RuntimeException | Error e) {
            reservation.end();
            throw e;
        }
        return placed.onTermination().invoke((response, failure, cancelled) -> reservation.endOn(cancelled));
    }

    /** A write's working memory: given back once, when its work is done. */
    private final class Reservation {
        private final long bytes;
        private final AtomicBoolean ended = new AtomicBoolean();
        /** Completes when the work on a worker thread ends, if the write went to one. */
        private volatile CompletableFuture<Void> onWorker;

        Reservation(long bytes) {
            this.bytes = bytes;
        }

        void end() {
            if (ended.compareAndSet(false, true)) {
                budget.unreserve(MemoryBudget.Use.COMPUTING, bytes);
            }
        }

        /** A client that leaves cancels its answer, not the work a worker is doing: that keeps its memory till done. */
        void endOn(boolean cancelled) {
            CompletableFuture<Void> work = onWorker;
            if (cancelled && work != null) {
                work.whenComplete((nothing, failure) -> end());
            } else {
                end();
            }
        }
    }

    private Uni<Response> place(long bytes, Supplier<Uni<Response>> write, Reservation reservation) {
        if (!Context.isOnEventLoopThread()) {
            return write.get();
        }
        Context context = Vertx.currentContext();
        if (bytes > inlineBytes) {
            return onWorker(context, write, reservation);
        }
        // a small write that turns out to cost more than its size said gives way, before it changed anything
        Uni<Response> inline;
        try {
            inline = write.get();
        } catch (TooLongForAnEventLoop tooLong) {
            return onWorker(context, write, reservation);
        }
        return inline.onFailure(TooLongForAnEventLoop.class)
                .recoverWithUni(() -> onWorker(context, write, reservation));
    }

    private Uni<Response> onWorker(Context context, Supplier<Uni<Response>> write, Reservation reservation) {
        offloaded.increment();
        CompletableFuture<Response> answered = new CompletableFuture<>();
        // apart from the answer, which a client that leaves cancels while the worker goes on
        CompletableFuture<Void> done = new CompletableFuture<>();
        reservation.onWorker = done;
        context.executeBlocking(() -> {
            try {
                write.get().subscribe().with(response -> {
                    done.complete(null);
                    answered.complete(response);
                }, failure -> {
                    done.complete(null);
                    answered.completeExceptionally(failure);
                });
            } catch (RuntimeException | StackOverflowError refused) {
                done.complete(null);
                answered.completeExceptionally(refused);
            }
            return null;
        }, false).onFailure(refused -> { // the pool would not take it (shutting down)
            done.complete(null);
            answered.completeExceptionally(refused);
        });
        // completed on the worker; RESTEasy goes on with the response on the request's event loop, which then
        // only writes bytes made here
        return Uni.createFrom().completionStage(answered);
    }
}
