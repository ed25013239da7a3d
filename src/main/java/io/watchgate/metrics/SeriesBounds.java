package io.watchgate.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * A bound on the series that carry a {@code resource} tag. Types come and go with CustomResourceDefinitions, and a
 * series, once made, stays for the life of the process: without a bound, a cluster that keeps making definitions
 * under new names would grow the scrape without end. Past {@link #MAX_RESOURCES} resources a meter takes no new
 * ones (their samples are dropped); the resources it has keep counting.
 */
public class SeriesBounds {

    static final int MAX_RESOURCES = 500;
    static final List<String> BY_RESOURCE = List.of("watchgate.objects", "watchgate.watches", "watchgate.writes",
            "watchgate.list.items");

    @Produces
    @Singleton
    MeterFilter resourcesPerMeter() {
        List<MeterFilter> bounds = BY_RESOURCE.stream()
                .map(name -> MeterFilter.maximumAllowableTags(name, "resource", MAX_RESOURCES, MeterFilter.deny()))
                .toList();
        return new MeterFilter() {
            @Override
            public MeterFilterReply accept(Meter.Id id) {
                for (MeterFilter bound : bounds) {
                    MeterFilterReply reply = bound.accept(id);
                    if (reply != MeterFilterReply.NEUTRAL) {
                        return reply;
                    }
                }
                return MeterFilterReply.NEUTRAL;
            }
        };
    }
}
