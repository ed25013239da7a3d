package io.watchgate.api;

import io.quarkus.arc.Arc;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.http.VertxInternals;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Cuts off a streamed response that is not sent whole in time. A streamed list is written by a worker thread that
 * waits while its client does not read; without a deadline a client that stops reading would hold the thread until
 * the connection's idle timeout, and a few hundred such clients would take the worker pool from every other read.
 * Like kube-apiserver's request timeout, the deadline is on the whole response, so a client that reads too slowly
 * is cut off as well as one that stopped. It ends the response: the connection for HTTP/1.1, the stream for
 * HTTP/2, which wakes the waiting writer with an error.
 */
@ApplicationScoped
public class SendDeadline {

    private static final Logger LOG = Logger.getLogger(SendDeadline.class);

    private final Vertx vertx;
    private final CurrentVertxRequest request;
    private final ApiConfig config;
    private final AtomicLong cutOff = new AtomicLong();

    SendDeadline(Vertx vertx, CurrentVertxRequest request, ApiConfig config) {
        this.vertx = vertx;
        this.request = request;
        this.config = config;
    }

    /** Responses cut off so far. */
    public long cutOff() {
        return cutOff.get();
    }

    /** Starts the deadline of the current request's response; it is called off as the response ends. */
    void arm() {
        if (!Arc.container().requestContext().isActive()) {
            return; // not serving an HTTP request: nobody to wait for
        }
        RoutingContext context = request.getCurrent();
        long timer = vertx.setTimer(config.sendTimeout().toMillis(), fired -> {
            if (cut(context)) {
                LOG.debugf("%s %s not sent within %s: cut off", context.request().method(),
                        context.request().path(), config.sendTimeout());
                cutOff.incrementAndGet();
            }
        });
        context.addEndHandler(ended -> vertx.cancelTimer(timer));
    }

    /**
     * Ends the response unless it has ended. HTTP/2: resets the stream, which drops what is queued for it and leaves
     * the connection's other streams be. HTTP/1.1: closes the socket at once, dropping what is queued (Vert.x's own
     * close and reset would send it first, see {@link VertxInternals#closeAtOnceUnlessEnded}).
     */
    private static boolean cut(RoutingContext context) {
        HttpServerResponse response = context.response();
        if (context.request().version() != HttpVersion.HTTP_2) {
            return VertxInternals.closeAtOnceUnlessEnded(context.request().connection(), response);
        }
        if (response.ended() || response.closed()) {
            return false;
        }
        return response.reset();
    }
}
