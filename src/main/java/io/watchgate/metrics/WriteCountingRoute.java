package io.watchgate.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A route that counts writes by Kubernetes verb, resource and HTTP code, as kube-apiserver's
 * {@code apiserver_request_total} counts them:
 * {@code watchgate_writes_total{verb="create",resource="configmaps",subresource="",dry_run="",code="201"}}.
 * Counted as each response ends, at the front of the router ({@link RouteOrder#WRITE_COUNTING}), so that every answer
 * counts: those of the resource API, the body guard's 413 and 400, Quarkus' own 413, and 404 for paths that name
 * nothing. A path naming no served type counts under resource {@code unknown}, so that the series stay as few as the
 * types; a write whose connection closed before its answer was sent counts under code {@code closed}.
 */
@ApplicationScoped
public class WriteCountingRoute {

    static final String UNKNOWN = "unknown";
    static final String CLOSED = "closed";
    private static final int MAX_CACHED = 10_000;

    /** One series; label values from fixed sets and the served types only, never from the request as sent. */
    record Series(String verb, String resource, String subresource, String dryRun, String code) {
    }

    private final MeterRegistry registry;
    private final ResourceTypes types;
    private final ConcurrentHashMap<Series, Counter> counters = new ConcurrentHashMap<>();

    WriteCountingRoute(MeterRegistry registry, ResourceTypes types) {
        this.registry = registry;
        this.types = types;
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.WRITE_COUNTING.order()).handler(this::countWhenAnswered);
    }

    private void countWhenAnswered(RoutingContext context) {
        HttpMethod method = context.request().method();
        String path = context.normalizedPath();
        if (isWrite(method) && (path.startsWith("/api/") || path.startsWith("/apis/"))) {
            RequestInfo request = RequestInfos.of(context);
            String verb = verb(method, request);
            boolean dryRun = "All".equals(context.request().getParam("dryRun"));
            // a response cut off by its connection closing has no code its client saw. A streamed body's writer
            // takes the close over, and may still end the response on the closed connection: the end handler can
            // hear of it as a success, so whether the connection was still open is what tells
            context.addEndHandler(ended -> count(verb, request, dryRun, ended.succeeded() && context.response().ended()
                    && !context.response().closed() ? Integer.toString(context.response().getStatusCode()) : CLOSED));
        }
        context.next();
    }

    private static boolean isWrite(HttpMethod method) {
        return method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH
                || method == HttpMethod.DELETE;
    }

    void count(String verb, RequestInfo request, boolean dryRun, String code) {
        Series series = new Series(verb, resource(request), subresource(request), dryRun ? "All" : "", code);
        Counter counter = counters.get(series);
        if (counter == null) {
            counter = Counter.builder("watchgate.writes")
                    .tags("verb", series.verb(), "resource", series.resource(), "subresource", series.subresource(),
                            "dry_run", series.dryRun(), "code", series.code())
                    .description("writes by verb, resource and HTTP code").register(registry);
            if (counters.size() < MAX_CACHED) { // past it (types made and deleted without end) the registry finds it
                counters.putIfAbsent(series, counter);
            }
        }
        counter.increment();
    }

    /**
     * The Kubernetes verb of a write, by its method (as kube-apiserver counts them, a legacy {@code watch/} segment
     * notwithstanding), or null for a read.
     */
    static String verb(HttpMethod method, RequestInfo request) {
        if (method == HttpMethod.POST) {
            return RequestInfo.CREATE;
        } else if (method == HttpMethod.PUT) {
            return RequestInfo.UPDATE;
        } else if (method == HttpMethod.PATCH) {
            return RequestInfo.PATCH;
        } else if (method == HttpMethod.DELETE) {
            return namesResource(request) && request.namesObject() ? RequestInfo.DELETE : RequestInfo.DELETE_COLLECTION;
        }
        return null;
    }

    private String resource(RequestInfo request) {
        if (!namesResource(request)) {
            return UNKNOWN;
        }
        return types.find(request.group(), request.version(), request.resource()).map(ResourceType::resource)
                .orElse(UNKNOWN);
    }

    private static String subresource(RequestInfo request) {
        if (!namesResource(request) || request.subresource().isEmpty()) {
            return "";
        }
        return request.subresource().equals("status") ? "status" : UNKNOWN;
    }

    /** Whether the path has the shape of one the API serves: a resource, an object, or one of its subresources. */
    private static boolean namesResource(RequestInfo request) {
        return request.resourceRequest() && !request.parts().isEmpty() && request.parts().size() <= 3;
    }
}
