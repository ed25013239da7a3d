package io.watchgate.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * Request latencies as Prometheus histograms, so that percentiles can be computed across replicas and time. A
 * dozen fixed buckets per series rather than Micrometer's seventy: the series are many (verb, status, path
 * template). Watches are tagged apart ({@code .../watch/...}) and last until they end, so they fill the top bucket
 * without blurring the others.
 */
public class RequestHistograms {

    private static final String HTTP_SERVER_REQUESTS = "http.server.requests";
    private static final double[] BUCKETS_MILLIS = {1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000};

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
}
