package io.watchgate.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * Request latencies as Prometheus histograms, so that percentiles can be computed across replicas and time. A
 * dozen fixed buckets per series rather than Micrometer's seventy: the series are many (verb, status, path
 * template). Watches are tagged apart ({@code .../watch/...}) and last until they end, so they fill the top bucket
 * without blurring the others.
 *
 * <p>The path template of every request below {@code /api/} and {@code /apis/} is {@link PathTemplates}', read from
 * the request's one parse: RESTEasy would tag the resource API with its catch-all path, and the requests answered
 * before it (413, OPTIONS, watches) with none, which leaves Quarkus to tag them with the raw path, a series per
 * namespace and object.
 */
@Singleton
public class RequestHistograms {

    private static final String HTTP_SERVER_REQUESTS = "http.server.requests";
    private static final double[] BUCKETS_MILLIS = {1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000};
    /** Where Quarkus' request metrics look for a request's path template (RESTEasy sets it for its own). */
    private static final String METRICS_PATH_TEMPLATE = "UrlPathTemplate";

    @Produces
    @Singleton
    MeterFilter requestLatencyBuckets() {
        double[] nanos = new double[BUCKETS_MILLIS.length];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = Duration.ofMillis(1).toNanos() * BUCKETS_MILLIS[i];
        }
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!id.getName().equals(HTTP_SERVER_REQUESTS)) {
                    return config;
                }
                return DistributionStatisticConfig.builder().serviceLevelObjectives(nanos).build().merge(config);
            }
        };
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.PATH_TEMPLATE.order()).handler(this::tagWithPathTemplate);
    }

    private void tagWithPathTemplate(RoutingContext context) {
        String path = context.normalizedPath();
        if (path.startsWith("/api/") || path.startsWith("/apis/")) {
            String template = PathTemplates.of(RequestInfos.of(context));
            Context request = Vertx.currentContext(); // the request's own (duplicated) context: its locals are its own
            tag(request, template);
            // RESTEasy tags what it serves once it has matched it, with the catch-all path: tag it again at the end
            context.addHeadersEndHandler(headersWritten -> tag(request, template));
        }
        context.next();
    }

    private static void tag(Context request, String template) {
        if (template == null) {
            request.removeLocal(METRICS_PATH_TEMPLATE);
        } else {
            request.putLocal(METRICS_PATH_TEMPLATE, template);
        }
    }
}
