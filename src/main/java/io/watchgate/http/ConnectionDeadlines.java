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
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Gives every connection of the API's port a {@link ConnectionDeadline}, and tells it of each request's head and
 * response. Vert.x calls nothing of an application's before a connection's first request head, which is what a slow
 * client never completes; so the deadline goes in at the listening channel, into each connection as it is accepted.
 * That channel is reached from a connection's: the server's own first request, sent as soon as it listens
 * ({@link #listening}), so the deadlines hold for every connection accepted after it: all but the few a client may
 * open in the milliseconds between. Should that request fail, the first client's request installs them.
 *
 * <p>That they are in place is logged once the request that put them in has been answered: what a first request
 * costs (classes loaded on the event loop) is then behind the server, not ahead of the first client that relies on
 * the words.
 */
@ApplicationScoped
public class ConnectionDeadlines {

    private static final String NAME = "watchgate-connection-deadline";
    /**
     * Netty's keys live as long as Netty's classes; a dev-mode live reload loads this class anew over the same
     * listening channel and connections, where a key of the same name would find the previous load's deadlines.
     */
    private static final AttributeKey<ConnectionDeadline> DEADLINE = AttributeKey.valueOf(
            NAME + "@" + Integer.toHexString(System.identityHashCode(ConnectionDeadline.class)));

    private static final Logger LOG = Logger.getLogger(ConnectionDeadlines.class);

    private final ConnectionConfig config;
    private final Refusals refusals;
    private volatile boolean installed;
    private volatile boolean reachingSelf;
    private volatile Object listeningAddress;
    private volatile Channel listeningChannel;
    private final AtomicBoolean announced = new AtomicBoolean();

    ConnectionDeadlines(ConnectionConfig config, Refusals refusals) {
        this.config = config;
        this.refusals = refusals;
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.CONNECTION_DEADLINE.order()).handler(this::headArrived);
    }

    /**
     * Once the server listens (an event Quarkus fires asynchronously), it sends itself a request, again every 100 ms
     * until one has put the deadlines in (at most 50 times: a server that cannot reach itself leaves it to its first
     * client, and says so).
     */
    void listening(@ObservesAsync HttpServerStart started, Vertx vertx) {
        if (!timed()) {
            return;
        }
        // the port actually bound: Quarkus publishes it as a system property when it was chosen at random
        String property = System.getProperty(LaunchMode.current() == LaunchMode.TEST ? "quarkus.http.test-port"
                : "quarkus.http.port");
        int port = property == null ? started.options().getPort() : Integer.parseInt(property);
        String host = started.options().getHost();
        String self = host == null || host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        if (port > 0) {
            HttpClient client = vertx.createHttpClient();
            reachingSelf = true;
            reachSelf(vertx, client, self, port, 50);
        }
    }

    private void reachSelf(Vertx vertx, HttpClient client, String host, int port, int attemptsLeft) {
        client.request(HttpMethod.GET, port, host, "/version")
                .compose(request -> request.send().compose(response -> response.body()))
                .onComplete(done -> {
                    if (installed) {
                        reachingSelf = false;
                        announce();
                        client.close();
                    } else if (attemptsLeft > 1) {
                        vertx.setTimer(100, t -> reachSelf(vertx, client, host, port, attemptsLeft - 1));
                    } else {
                        LOG.warnf("request deadlines wait for the first request: the server could not reach itself "
                                + "at %s:%d (%s)", host, port, done.failed() ? done.cause() : "no deadline put in");
                        reachingSelf = false;
                        client.close();
                    }
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
            listeningAddress = listening.localAddress();
            listeningChannel = listening;
            installed = true;
        }
        if (!reachingSelf) {
            announce(); // a client's request put them in: there is no request of the server's own to wait for
        }
    }

    /**
     * Takes the acceptor out of the listening channel: in dev mode the server outlives the application on a live
     * reload, and the reloaded application puts in its own.
     */
    @PreDestroy
    void uninstall() {
        Channel listening = listeningChannel;
        if (listening != null) {
            ChannelPipeline pipeline = listening.pipeline();
            synchronized (this) {
                if (pipeline.get(NAME) != null) {
                    pipeline.remove(NAME);
                }
            }
        }
    }

    private void announce() {
        if (announced.compareAndSet(false, true)) {
            LOG.infof("request deadlines in place for the connections %s accepts from now on", listeningAddress);
        }
    }

    private boolean timed() {
        return !config.requestHeadTimeout().isZero() || !config.requestBodyTimeout().isZero()
                || !config.keepAliveTimeout().isZero();
    }
}
