package io.watchgate.metrics;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;
import java.util.concurrent.ConcurrentHashMap;

/** How many items lists return, by resource: their latency is in the HTTP request metrics already. */
@Singleton
public class ListSizes {

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, DistributionSummary> byResource = new ConcurrentHashMap<>();

    ListSizes(MeterRegistry registry) {
        this.registry = registry;
    }

    public void record(String resource, int items) {
        byResource.computeIfAbsent(resource, r -> DistributionSummary.builder("watchgate.list.items")
                .tag("resource", r).description("items in a list response")
                .serviceLevelObjectives(10, 100, 1_000, 10_000, 100_000).register(registry)).record(items);
    }
}
