package io.watchgate.api;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/** How a write is answered once it counts: on which thread its response is made, and with which warnings. */
final class WriteAnswers {

    private WriteAnswers() {
    }

    /**
     * The response to a write once it counts. A durable write completes on the log's thread; its response is made
     * back on the thread that took the request (the event loop), so the log's thread only ever syncs. A write
     * computed on a worker ({@link WritePlacement}) is answered on a worker too: its answer may be large.
     */
    static <T> Uni<Response> answer(CompletionStage<T> written, Function<T, Response> respond) {
        CompletableFuture<T> future = written.toCompletableFuture();
        if (future.isDone() && !future.isCompletedExceptionally()) {
            return Uni.createFrom().item(respond.apply(future.join()));
        }
        if (!Context.isOnEventLoopThread()) {
            return answerOnWorker(written, respond);
        }
        Context context = Vertx.currentContext(); // the request's: small writes are taken on their event loop
        return Uni.createFrom().completionStage(written).emitOn(task -> context.runOnContext(v -> task.run()))
                .map(respond);
    }

    /**
     * The response to a deletion once it counts, made on a worker thread of the request's context: a deletecollection
     * may answer a list too long to serialize on the event loop, streamed by a writer that waits for its client, and
     * the send deadline it arms belongs to the request (whose scope the request's context carries). No thread waits
     * meanwhile: the request's worker thread is free once the deletion is submitted.
     */
    static <T> Uni<Response> answerOnWorker(CompletionStage<T> deleted, Function<T, Response> respond) {
        Context context = Vertx.currentContext(); // the request's, which its blocking handler runs on
        return Uni.createFrom().completionStage(deleted)
                .emitOn(task -> context.executeBlocking(() -> {
                    task.run();
                    return null;
                }, false))
                .map(respond);
    }

    /** Kubernetes sends each warning as a {@code Warning: 299 - "..."} header. */
    static Response withWarnings(Response response, List<String> warnings) {
        if (warnings.isEmpty()) {
            return response;
        }
        Response.ResponseBuilder builder = Response.fromResponse(response);
        for (String warning : warnings) {
            // a header carries no control characters: field names from a body may hold any
            String text = warning.replaceAll("\\p{Cntrl}", "?").replace("\\", "\\\\").replace("\"", "\\\"");
            builder.header("Warning", "299 - \"" + text + "\"");
        }
        return builder.build();
    }
}
