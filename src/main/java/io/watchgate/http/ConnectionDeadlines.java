package io.watchgate.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.AttributeKey;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.vertx.http.HttpServerStart;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.RouteOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Gives every connection of the API's port a {@link ConnectionDeadline}, and tells it of each request's head and
 * response. Vert.x calls nothing of an application's before a connection's first request head, which is what a slow
 * client never completes; so the deadline goes in at the listening channel, into each connection as it is accepted.
 * That channel is reached from a connection's (the first request's, which the server sends itself once it listens).
 */
@ApplicationScoped
public class ConnectionDeadlines {

    private static final Logger LOG = Logger.getLogger(ConnectionDeadlines.class);
    private static final String NAME = "watchgate-connection-deadline";
    private static final AttributeKey<ConnectionDeadline> DEADLINE = AttributeKey.valueOf(NAME);

    private final ConnectionConfig config;
    private final Refusals refusals;

    ConnectionDeadlines(ConnectionConfig config, Refusals refusals) {
        this.config = config;
        this.refusals = refusals;
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.CONNECTION_DEADLINE.order()).handler(this::headArrived);
    }

    /** Once the server listens, a request of its own reaches the listening channel before any client's can. */
    void listening(@Observes HttpServerStart started, Vertx vertx) {
        String key = LaunchMode.current() == LaunchMode.TEST ? "quarkus.http.test-port" : "quarkus.http.port";
        int port = ConfigProvider.getConfig().getOptionalValue(key, Integer.class).orElse(started.options().getPort());
        if (port <= 0) {
            return; // a port chosen at random and not known here: the first client's request installs it
        }
        HttpClient client = vertx.createHttpClient();
        client.request(HttpMethod.GET, port, "localhost", "/version")
                .compose(request -> request.send().compose(response -> response.body()))
                .onComplete(done -> {
                    if (done.failed()) {
                        LOG.warnf("request deadlines wait for the first request: the server could not reach itself "
                                + "(%s)", done.cause().toString());
                    }
                    client.close();
                });
    }

    private void headArrived(RoutingContext context) {
        HttpServerRequest request = context.request();
        Channel channel = VertxInternals.channelOf(request.connection());
        if (channel != null) {
            ConnectionDeadline deadline = channel.attr(DEADLINE).get();
            if (deadline == null) {
                installAt(channel.parent()); // a connection from before: its later ones get deadlines
            } else {
                // an HTTP/2 connection's streams are not requests this can time (nor, later, a WebSocket's frames)
                boolean http2 = request.version() == HttpVersion.HTTP_2;
                deadline.headArrived(request, http2);
                if (!http2) {
                    context.addEndHandler(ended -> {
                        if (ended.succeeded()) {
                            deadline.responseEnded();
                        }
                    });
                }
            }
        }
        context.next();
    }

    private void installAt(Channel listening) {
        if (listening == null || !timed()) {
            return;
        }
        ChannelPipeline pipeline = listening.pipeline();
        synchronized (this) {
            if (pipeline.get(NAME) != null) {
                return;
            }
            pipeline.addFirst(NAME, new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object accepted) throws Exception {
                    if (accepted instanceof Channel connection) {
                        ConnectionDeadline deadline = new ConnectionDeadline(config,
                                () -> refusals.count(Refusals.Reason.SLOW_REQUEST));
                        connection.attr(DEADLINE).set(deadline);
                        connection.pipeline().addFirst(NAME, deadline);
                    }
                    super.channelRead(ctx, accepted);
                }
            });
        }
    }

    private boolean timed() {
        return !config.requestHeadTimeout().isZero() || !config.requestBodyTimeout().isZero()
                || !config.keepAliveTimeout().isZero();
    }
}
