package io.watchgate.api;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.RequestInfo;
import io.watchgate.watch.http.StreamRoute;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusBody;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * kube-apiserver's max-in-flight filter: at most {@code watchgate.api.max-requests-inflight} reads and
 * {@code max-mutating-requests-inflight} writes are served at once; one more is refused with 429 TooManyRequests and
 * {@code Retry-After: 1}, before anything reads its body. Long-running requests (watches, which have their own limit,
 * and what kube-apiserver counts with them) take no place. A place is held from here until the response ends or
 * its connection closes, whichever comes first, so a client that resets its connections gives them back at once.
 */
@ApplicationScoped
public class InFlightLimit {

    /** kube-apiserver's non-mutating verbs; for a request outside the API, the lowercased method. */
    public static final Set<String> READ_VERBS = Set.of(RequestInfo.GET, RequestInfo.LIST, RequestInfo.WATCH,
            "head", "options");
    /** kube-apiserver's BasicLongRunningRequestCheck: these verbs and subresources may run for as long as they like. */
    private static final Set<String> LONG_RUNNING_VERBS = Set.of(RequestInfo.WATCH, RequestInfo.PROXY);
    private static final Set<String> LONG_RUNNING_SUBRESOURCES = Set.of("attach", "exec", "proxy", "log",
            "portforward");

    private final ApiConfig config;
    private final Refusals refusals;
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicInteger writes = new AtomicInteger();

    InFlightLimit(ApiConfig config, Refusals refusals, MeterRegistry registry) {
        this.config = config;
        this.refusals = refusals;
        Gauge.builder("watchgate.requests.inflight", reads, AtomicInteger::get).tag("kind", "readonly")
                .description("requests being served, watches apart").register(registry);
        Gauge.builder("watchgate.requests.inflight", writes, AtomicInteger::get).tag("kind", "mutating")
                .description("requests being served, watches apart").register(registry);
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.IN_FLIGHT.order()).handler(this::admit);
    }

    private void admit(RoutingContext context) {
        RequestInfo info = RequestInfos.of(context);
        if (longRunning(info)) {
            context.next();
            return;
        }
        boolean mutating = !READ_VERBS.contains(info.verb());
        int limit = mutating ? config.maxMutatingRequestsInflight() : config.maxRequestsInflight();
        if (limit <= 0) {
            context.next();
            return;
        }
        AtomicInteger inFlight = mutating ? writes : reads;
        if (inFlight.incrementAndGet() > limit) {
            inFlight.decrementAndGet();
            refusals.count(mutating ? Refusals.Reason.MUTATING_REQUESTS_INFLIGHT : Refusals.Reason.REQUESTS_INFLIGHT);
            refuse(context, 1);
            return;
        }
        // called once: at the response's end, or at its connection's close or failure, whichever comes first
        context.addEndHandler(ended -> inFlight.decrementAndGet());
        context.next();
    }

    public static boolean longRunning(RequestInfo info) {
        return LONG_RUNNING_VERBS.contains(info.verb())
                || (info.resourceRequest() && LONG_RUNNING_SUBRESOURCES.contains(info.subresource()))
                || isStream(info);
    }

    /** A stream of watches ({@code GET /streams}): long-running, and refused in a form an EventSource retries. */
    public static boolean isStream(RequestInfo info) {
        return !info.resourceRequest() && RequestInfo.GET.equals(info.verb()) && StreamRoute.PATH.equals(info.path());
    }

    /** kube-apiserver's 429, word for word. */
    public static ApiException tooManyRequests(long retryAfterSeconds) {
        return new ApiException(429, "TooManyRequests", "Too many requests, please try again later.",
                ApiException.Details.NONE, (int) retryAfterSeconds, null);
    }

    /**
     * kube-apiserver's answer, word for word, with {@code Retry-After} in seconds; a body left unread closes the
     * connection after it.
     */
    public static void refuse(RoutingContext context, long retryAfterSeconds) {
        ApiException e = tooManyRequests(retryAfterSeconds);
        HttpServerRequest request = context.request();
        HttpServerResponse response = context.response().setStatusCode(429)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("Retry-After", Long.toString(retryAfterSeconds));
        if (request.version() != HttpVersion.HTTP_2 && hasBody(request)) {
            response.putHeader(HttpHeaders.CONNECTION, "close");
        }
        response.end(StatusBody.of(e).toString());
    }

    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null
                || (length != null && !length.trim().equals("0"));
    }
}
