package io.watchgate.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.AttributeKey;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.RouteOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Gives every connection of the API's port a {@link ConnectionDeadline}, and tells it of each request's head and
 * response. Vert.x calls nothing of an application's before a connection's first request head, which is what a slow
 * client never completes; so the deadline goes in at the listening channel, into each connection as it is accepted.
 * That channel is reached from a connection's: the deadlines hold for every connection accepted after the first
 * request the API port serves (connections made before it, the first request's own included, go untimed).
 */
@ApplicationScoped
public class ConnectionDeadlines {

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
