package io.watchgate.watch.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authz.WatchGrants;
import io.watchgate.api.InFlightLimit;
import io.watchgate.fairness.UserLimits;
import io.watchgate.http.TrustedOrigins;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.QueryFlags;
import io.watchgate.request.QueryParameters;
import io.watchgate.request.RequestEnd;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import io.watchgate.status.ApiException;
import io.watchgate.store.Store;
import io.watchgate.watch.EncodedEvents;
import io.watchgate.watch.WatchConfig;
import io.watchgate.watch.WatchGrant;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WatchSpec;
import io.watchgate.watch.WireFormat;
import io.watchgate.watch.fanout.WatchHubs;
import io.watchgate.watch.stream.StreamConfig;
import io.watchgate.watch.stream.StreamedWatch;
import io.watchgate.watch.stream.WatchStream;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Serves streams of many watches: {@code GET /streams?watch=<collection URL>&watch=...} as one Server-Sent Events
 * stream, in revision order across all of them, resumed as a whole with {@code Last-Event-ID} (see
 * {@link WatchStream}). A browser has some six connections per host; a dashboard needs more watches than that.
 *
 * <p>Each watch is authorized as the single watch it stands for: one the user may not watch gets its own 403 event,
 * and the others go on. The stream as a whole is a long-running request of its user, and each of its watches takes
 * a place among the server's watches.
 */
@ApplicationScoped
public class StreamRoute {

    /** Where streams are served: a path of its own, outside the resource API. */
    public static final String PATH = "/streams";

    private final WatchSpecs specs;
    private final RevisionWait revisions;
    private final WatchHubs hubs;
    private final Store store;
    private final EncodedEvents frames;
    private final WatchConfig config;
    private final StreamConfig streams;
    private final WatchGrants grants;
    private final Refusals refusals;
    private final ObjectMapper mapper;
    private final UserLimits users;
    private final TrustedOrigins origins = TrustedOrigins.configured(ConfigProvider.getConfig());

    StreamRoute(WatchSpecs specs, RevisionWait revisions, WatchHubs hubs, Store store, EncodedEvents frames,
            WatchConfig config, StreamConfig streams, WatchGrants grants, Refusals refusals, ObjectMapper mapper,
            UserLimits users) {
        this.mapper = mapper;
        this.users = users;
        this.specs = specs;
        this.revisions = revisions;
        this.hubs = hubs;
        this.store = store;
        this.frames = frames;
        this.config = config;
        this.streams = streams;
        this.grants = grants;
        this.refusals = refusals;
    }

    void install(@Observes Router router) {
        router.get(PATH).order(RouteOrder.WATCH.order()).handler(this::handle);
    }

    private record Refused(StreamedWatch watch, ApiException why) {
    }

    /** A stream as asked for: the watches it serves, those refused, when it ends, and what it coalesces (or 0). */
    private record Asked(List<StreamedWatch> watches, List<Refused> refused, Duration lifetime, int coalesce) {
    }

    private void handle(RoutingContext context) {
        if (!InFlightLimit.isStream(RequestInfos.of(context))) {
            context.next(); // /streams/ and the like: nothing, and not a long-running request for the limits
            return;
        }
        HttpServerRequest request = context.request();
        List<StreamedWatch> granted = new ArrayList<>();
        List<Refused> refused = new ArrayList<>();
        Duration lifetime;
        int coalesce;
        boolean webSocket = WatchRoute.isWebSocketUpgrade(request);
        if (webSocket && !origins.allows(request)) {
            refusals.count(Refusals.Reason.WEBSOCKET_ORIGIN);
            WatchRoute.reply(context, WatchRoute.foreignOrigin(request.getHeader(HttpHeaders.ORIGIN)));
            return;
        }
        try {
            if (!webSocket) {
                acceptable(request.getHeader(HttpHeaders.ACCEPT));
            }
            List<String> urls = QueryParameters.all(context, "watch");
            if (urls.size() > streams.maxWatches()) {
                refusals.count(Refusals.Reason.STREAM_WATCHES);
            }
            // a WebSocket may open with no watch: its client adds them by message
            StreamRequests.checkAll(urls, webSocket ? 0 : 1, streams.maxWatches());
            lifetime = WatchSpec.lifetime(WatchRequests.timeout(QueryParameters.first(context, "timeoutSeconds")),
                    config);
            coalesce = QueryFlags.bool("coalesce", QueryParameters.first(context, "coalesce"))
                    ? streams.maxCoalescedObjects() : 0;
            String lastEventId = request.getHeader("Last-Event-ID");
            for (String url : urls) {
                StreamRequests.Asked asked = StreamRequests.parse(url, specs, lastEventId);
                try {
                    WatchGrant grant = grants.authorize(context, asked.info());
                    granted.add(new StreamedWatch(url, asked.spec().grantedBy(grant)));
                } catch (ApiException forbidden) {
                    refusals.count(Refusals.Reason.FORBIDDEN);
                    refused.add(new Refused(new StreamedWatch(url, asked.spec()), forbidden));
                }
            }
            if (granted.isEmpty() && !webSocket && !refused.isEmpty()) {
                throw refused.get(0).why(); // no watch to serve: an EventSource told so with a 403 does not come back
            }
        } catch (ApiException e) {
            WatchRoute.reply(context, e);
            return;
        }
        int places = granted.size();
        try {
            hubs.admit(places);
        } catch (ApiException e) {
            refuse(context, e, webSocket);
            return;
        }
        long required = granted.stream().mapToLong(watch -> watch.spec().requiredRevision()).max().orElse(0);
        Asked asked = new Asked(granted, refused, lifetime, coalesce);
        revisions.whenStoreReaches(required, () -> {
            if (webSocket) {
                openSocket(context, asked);
            } else {
                open(context, asked);
            }
        }, e -> {
            hubs.release(places);
            refuse(context, e, webSocket);
        });
    }

    private void openSocket(RoutingContext context, Asked asked) {
        Runnable ended = RequestEnd.upgraded(context); // Vert.x ends no upgraded response: the socket does
        context.request().toWebSocket().onSuccess(socket -> {
            WebSocketSink sink = new WebSocketSink(socket, ended);
            for (Refused watch : asked.refused()) {
                sink.write(WatchStream.refusal(WireFormat.JSON_LINES, watch.watch(), watch.why()));
            }
            WatchStream[] made = new WatchStream[1];
            if (hubs.start(loop -> made[0] = stream(asked, sink, loop), sink)) {
                StreamSocket messages = new StreamSocket(context, made[0], specs, grants, hubs, mapper, streams,
                        refusals, users);
                socket.textMessageHandler(messages::onMessage);
            }
        }).onFailure(e -> {
            hubs.release(asked.watches().size());
            ended.run();
        });
    }

    /** A stream refused for now: a Status for a WebSocket upgrade, an event stream an EventSource retries. */
    private static void refuse(RoutingContext context, ApiException e, boolean webSocket) {
        if (webSocket) {
            WatchRoute.reply(context, e);
        } else {
            WatchRoute.refuse(context, e, WireFormat.SERVER_SENT_EVENTS, true);
        }
    }

    /** A stream is an event stream: an Accept that does not take one is refused (406). */
    private static void acceptable(String accept) {
        if (accept == null || accept.isBlank() || accept.contains("text/event-stream") || accept.contains("*/*")
                || accept.contains("text/*")) {
            return;
        }
        throw new ApiException(406, "NotAcceptable", "only text/event-stream is served at " + PATH
                + "; the Accept header asks for " + StreamRequests.shown(accept));
    }

    private WatchStream stream(Asked asked, WatchSink sink, WatchLoop loop) {
        return new WatchStream(asked.watches(), sink, loop, store, frames, config, asked.lifetime(), asked.coalesce());
    }

    private void open(RoutingContext context, Asked asked) {
        HttpServerRequest request = context.request();
        if (context.response().closed()) {
            hubs.release(asked.watches().size()); // the client left while the stream waited for its resourceVersion
            return;
        }
        HttpServerResponse response = context.response();
        response.setStatusCode(200)
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache, private")
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .putHeader("X-Accel-Buffering", "no");
        if (request.version() != HttpVersion.HTTP_2) {
            response.setChunked(true);
        }
        response.writeHead();
        Buffer head = Buffer.buffer("retry: " + config.sseRetry().toMillis() + "\n\n");
        for (Refused watch : asked.refused()) {
            head.appendBuffer(WatchStream.refusal(WireFormat.SERVER_SENT_EVENTS, watch.watch(), watch.why()));
        }
        response.write(head);
        HttpStreamSink sink = new HttpStreamSink(request, response, WireFormat.SERVER_SENT_EVENTS);
        hubs.start(loop -> stream(asked, sink, loop), sink);
    }
}
