package io.watchgate.watch.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authz.WatchGrants;
import io.watchgate.http.TrustedOrigins;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.QueryFlags;
import io.watchgate.request.QueryParameters;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RequestEnd;
import io.watchgate.request.RouteOrder;
import io.watchgate.request.Target;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusBody;
import io.watchgate.watch.WatchConfig;
import io.watchgate.watch.WatchSpec;
import io.watchgate.watch.WireFormat;
import io.watchgate.watch.fanout.WatchHubs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Serves watches: {@code GET} on a collection with {@code watch=true}, or under the legacy {@code /watch/}
 * prefix. A Vert.x route ahead of the resource API, because a watch is written straight to the connection as
 * events happen: chunked JSON lines, Server-Sent Events for {@code Accept: text/event-stream}, or WebSocket
 * messages when the request asks for an upgrade. Runs on the event loop and never blocks.
 */
@ApplicationScoped
public class WatchRoute {

    private final WatchSpecs specs;
    private final RevisionWait revisions;
    private final WatchHubs hubs;
    private final WatchConfig config;
    private final Refusals refusals;
    private final WatchGrants grants;
    private final TrustedOrigins origins = TrustedOrigins.configured(ConfigProvider.getConfig());

    WatchRoute(WatchSpecs specs, RevisionWait revisions, WatchHubs hubs, WatchConfig config, Refusals refusals,
            WatchGrants grants) {
        this.specs = specs;
        this.revisions = revisions;
        this.hubs = hubs;
        this.config = config;
        this.refusals = refusals;
        this.grants = grants;
    }

    void install(@Observes Router router) {
        router.get().order(RouteOrder.WATCH.order()).handler(this::handle);
    }

    private void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        RequestInfo info = RequestInfos.of(context);
        // a watch of a subresource, or of nothing, is the resource API's to refuse
        if (!info.verb().equals(RequestInfo.WATCH) || info.parts().isEmpty() || info.parts().size() > 2) {
            context.next();
            return;
        }
        boolean webSocket = isWebSocketUpgrade(request);
        if (webSocket && !origins.allows(request)) {
            refusals.count(Refusals.Reason.WEBSOCKET_ORIGIN);
            reply(context, foreignOrigin(request.getHeader(HttpHeaders.ORIGIN)));
            return;
        }
        WatchSpec spec;
        WireFormat format;
        try {
            // the grammar reads a watch parameter that is no boolean as a watch, as kube-apiserver does: refused here
            QueryFlags.bool("watch", QueryParameters.first(context, "watch"));
            Target target = specs.target(info);
            WatchMediaTypes.Negotiated negotiated = webSocket
                    ? new WatchMediaTypes.Negotiated(WireFormat.JSON_LINES, null)
                    : WatchMediaTypes.negotiate(request.getHeader(HttpHeaders.ACCEPT),
                            specs.servesProtobuf(target.type()), QueryParameters.first(context, "as"));
            format = negotiated.format();
            String lastEventId = format == WireFormat.SERVER_SENT_EVENTS ? request.getHeader("Last-Event-ID") : null;
            spec = specs.spec(info, target, name -> QueryParameters.first(context, name), format,
                    negotiated.tableVersion(), lastEventId).grantedBy(grants.of(context));
        } catch (ApiException e) {
            reply(context, e);
            return;
        }
        try {
            hubs.admit();
        } catch (ApiException e) {
            refuse(context, e, format);
            return;
        }
        revisions.whenStoreReaches(spec.requiredRevision(), () -> open(context, spec, format, webSocket), e -> {
            hubs.release();
            refuse(context, e, format);
        });
    }

    private void open(RoutingContext context, WatchSpec spec, WireFormat format, boolean webSocket) {
        HttpServerRequest request = context.request();
        if (context.response().closed()) {
            hubs.release(); // the client left while the watch waited for its resourceVersion
            return;
        }
        if (webSocket) {
            Runnable ended = RequestEnd.upgraded(context); // Vert.x ends no upgraded response: the socket does
            request.toWebSocket()
                    .onSuccess(socket -> hubs.start(spec, new WebSocketSink(socket, ended)))
                    .onFailure(e -> {
                        hubs.release();
                        ended.run();
                    });
            return;
        }
        HttpServerResponse response = context.response();
        response.setStatusCode(200)
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache, private");
        if (request.version() != HttpVersion.HTTP_2) {
            response.setChunked(true);
        }
        if (format == WireFormat.SERVER_SENT_EVENTS) {
            response.putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                    .putHeader("X-Accel-Buffering", "no");
            response.writeHead();
            response.write(Buffer.buffer("retry: " + config.sseRetry().toMillis() + "\n\n"));
        } else {
            response.putHeader(HttpHeaders.CONTENT_TYPE, spec.rendering().contentType());
            response.writeHead();
        }
        hubs.start(spec, new HttpStreamSink(request, response, format));
    }

    static boolean isWebSocketUpgrade(HttpServerRequest request) {
        String upgrade = request.getHeader(HttpHeaders.UPGRADE);
        return upgrade != null && upgrade.equalsIgnoreCase("websocket") && request.version() != HttpVersion.HTTP_2;
    }

    /** 403 for a WebSocket upgrade from a page whose origin is not allowed (see {@link TrustedOrigins}). */
    static ApiException foreignOrigin(String origin) {
        String shown = origin.length() > 100 ? origin.substring(0, 100) + "..." : origin;
        return new ApiException(403, "Forbidden", "a watch over WebSocket from a page of origin \"" + shown
                + "\" is not allowed: only the server's own origin and those of quarkus.http.cors.origins may "
                + "open one");
    }

    /**
     * Refuses a watch before it was negotiated (a user past its share of watches): as {@link #refuse}, in the form
     * the request's Accept asks for, so that an EventSource is told when to come back rather than given up.
     */
    public static void refuseWatch(RoutingContext context, ApiException e) {
        WireFormat format = WireFormat.JSON_LINES;
        if (!isWebSocketUpgrade(context.request())) {
            try {
                String accept = context.request().getHeader(HttpHeaders.ACCEPT);
                format = WatchMediaTypes.negotiate(accept, false, null).format();
            } catch (ApiException notAcceptable) {
                // no watch form fits the Accept (protobuf alone, say): the refusal is the news, as JSON
            }
        }
        refuse(context, e, format);
    }

    /**
     * A watch refused for now (503 draining, 429 too many, 504 resourceVersion not reached). An EventSource never
     * retries after an error status, so it gets an event stream instead: for 504 an ERROR event, as for an expired
     * resourceVersion; else a RETRY event with the Status (a page can say why it waits, which it cannot read from a
     * comment) and a {@code retry:} that says when to come back.
     */
    static void refuse(RoutingContext context, ApiException e, WireFormat format) {
        refuse(context, e, format, false);
    }

    /** @param stream whether the event's data is a stream's, {@code {"type":..,"object":<Status>}}, not the Status */
    static void refuse(RoutingContext context, ApiException e, WireFormat format, boolean stream) {
        if (format != WireFormat.SERVER_SENT_EVENTS || context.response().headWritten()) {
            reply(context, e);
            return;
        }
        String type = e.code() == 504 ? "ERROR" : "RETRY";
        JsonNode status = StatusBody.of(e);
        if (stream) {
            status = JsonNodeFactory.instance.objectNode().put("type", type).set("object", status);
        }
        Buffer event = format.frame(type, status.toString().getBytes(StandardCharsets.UTF_8),
                // after an ERROR, a Last-Event-ID from before a restart of a volatile store would never come: relist
                e.code() == 504 ? WireFormat.RESET_ID : WireFormat.NO_ID);
        if (e.code() != 504) {
            long retryMillis = (e.retryAfterSeconds() == null ? 1 : e.retryAfterSeconds()) * 1000L;
            event = Buffer.buffer("retry: " + retryMillis + "\n").appendBuffer(event);
        }
        context.response().setStatusCode(200)
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache, private")
                .end(event);
    }

    /** A refused watch: an HTTP error with a Status body, as for any other request. */
    static void reply(RoutingContext context, ApiException e) {
        HttpServerResponse response = context.response();
        if (response.headWritten()) {
            response.reset();
            return;
        }
        response.setStatusCode(e.code()).putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        if (e.retryAfterSeconds() != null) {
            response.putHeader("Retry-After", Integer.toString(e.retryAfterSeconds()));
        }
        response.end(StatusBody.of(e).toString());
    }
}
