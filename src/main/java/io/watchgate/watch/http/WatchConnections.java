package io.watchgate.watch.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.api.InFlightLimit;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * An HTTP/1.x connection that carried a watch, or a stream of watches, ends with it: whatever answers the request
 * (the watch's events, or a refusal by any route) says {@code Connection: close}, and the client opens a new
 * connection for its next request. WebSocket upgrades and HTTP/2 streams are left alone.
 *
 * <p>Why not keep it alive: the HTTP/1.1 client of Vert.x 4, under fabric8's default HTTP client among others,
 * closes a pooled connection when a request it had completed is reset later (eclipse-vertx/vert.x#6294), and
 * fabric8 resets its previous watch request when it watches again, a moment after that watch ended. Meanwhile the
 * pool may have given the ended watch's connection to another request of the same client (a list, a write), which
 * then fails with "Connection was closed". A connection that closes with its watch is never given to another
 * request; the cost is one new connection per watch, which lasts minutes.
 */
@ApplicationScoped
public class WatchConnections {

    void install(@Observes Router router) {
        router.route().order(RouteOrder.WATCH_CONNECTION.order()).handler(this::closeWithTheWatch);
    }

    private void closeWithTheWatch(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (request.version() != HttpVersion.HTTP_2 && !WatchRoute.isWebSocketUpgrade(request)) {
            RequestInfo info = RequestInfos.of(context);
            if (RequestInfo.WATCH.equals(info.verb()) || InFlightLimit.isStream(info)) {
                context.addHeadersEndHandler(v -> context.response().putHeader(HttpHeaders.CONNECTION, "close"));
            }
        }
        context.next();
    }
}
