package io.watchgate.metrics;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;

/** How many items lists return, by resource: their latency is in the HTTP request metrics already. */
@Singleton
public class ListSizes {

    private final MeterRegistry registry;

    ListSizes(MeterRegistry registry) {
        this.registry = registry;
    }

    public void record(String resource, int items) {
        DistributionSummary.builder("watchgate.list.items").tag("resource", resource)
                .description("items in a list response").serviceLevelObjectives(10, 100, 1_000, 10_000, 100_000)
                .register(registry).record(items);
    }
}
