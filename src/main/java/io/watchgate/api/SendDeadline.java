package io.watchgate.api;

import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Cuts off a streamed response that is not sent whole in time. A streamed list is written by a worker thread that
 * waits while its client does not read; without a deadline a client that stops reading would hold the thread until
 * the connection's idle timeout, and a few hundred such clients would take the worker pool from every other read.
 * Like kube-apiserver's request timeout for lists, the deadline ends the response: the connection for HTTP/1.1, the
 * stream for HTTP/2, which wakes the waiting writer with an error.
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

    /**
     * HTTP/2: resets the stream, which drops what is queued for it and leaves the connection's other streams be.
     * HTTP/1.1: closes the socket at once. Vert.x's own close (and reset) waits for the queued bytes to go first,
     * which an unread socket never lets happen, and the body's last chunk would follow them as if it were whole.
     */
    private static void cut(RoutingContext context) {
        if (context.request().version() != HttpVersion.HTTP_2
                && context.request().connection() instanceof ConnectionBase connection) {
            connection.channel().close();
        } else {
            context.response().reset();
        }
    }

    /** Responses cut off so far. */
    public long cutOff() {
        return cutOff.get();
    }

    /** Starts the deadline of the current request's response; it is called off as the response ends. */
    void arm() {
        RoutingContext context = request.getCurrent();
        if (context == null) {
            return; // not an HTTP request (a test calling in directly): nobody to wait for
        }
        long timer = vertx.setTimer(config.sendTimeout().toMillis(), fired -> {
            if (!context.response().ended() && !context.response().closed()) {
                LOG.debugf("%s %s not sent within %s: cut off", context.request().method(),
                        context.request().path(), config.sendTimeout());
                cutOff.incrementAndGet();
                cut(context);
            }
        });
        context.addEndHandler(ended -> vertx.cancelTimer(timer));
    }
}
