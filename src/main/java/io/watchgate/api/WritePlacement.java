package io.watchgate.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.watchgate.http.TooLongForAnEventLoop;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletableFuture;
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

    private final long inlineBytes;
    private final Counter offloaded;

    WritePlacement(ApiConfig config, MeterRegistry registry) {
        this.inlineBytes = config.inlineWriteBytes();
        this.offloaded = Counter.builder("watchgate.writes.offloaded")
                .description("writes computed on a worker thread for the size of their body or stored object")
                .register(registry);
    }

    /**
     * Runs {@code write} where its size says; a small one that finds part way that it would hold the event loop too
     * long ({@link TooLongForAnEventLoop}) is run again on a worker.
     *
     * @param bytes the larger of the request body and the stored object the write starts from
     * @param write the write and its answer; on a worker thread it answers there too ({@code ResourceVerbs.answer})
     */
    Uni<Response> run(long bytes, Supplier<Uni<Response>> write) {
        if (!Context.isOnEventLoopThread()) {
            return write.get();
        }
        Context context = Vertx.currentContext();
        if (bytes > inlineBytes) {
            return onWorker(context, write);
        }
        // a small write that turns out to cost more than its size said gives way, before it changed anything
        Uni<Response> inline;
        try {
            inline = write.get();
        } catch (TooLongForAnEventLoop tooLong) {
            return onWorker(context, write);
        }
        return inline.onFailure(TooLongForAnEventLoop.class).recoverWithUni(() -> onWorker(context, write));
    }

    private Uni<Response> onWorker(Context context, Supplier<Uni<Response>> write) {
        offloaded.increment();
        CompletableFuture<Response> answered = new CompletableFuture<>();
        context.executeBlocking(() -> {
            try {
                write.get().subscribe().with(answered::complete, answered::completeExceptionally);
            } catch (RuntimeException | StackOverflowError refused) {
                answered.completeExceptionally(refused);
            }
            return null;
        }, false).onFailure(answered::completeExceptionally); // the pool would not take it (shutting down)
        // completed on the worker; RESTEasy goes on with the response on the request's event loop, which then
        // only writes bytes made here
        return Uni.createFrom().completionStage(answered);
    }
}
