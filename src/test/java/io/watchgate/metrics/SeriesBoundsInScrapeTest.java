package io.watchgate.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bound on series by resource holds in what Prometheus scrapes, not only in a bare registry: Quarkus applies
 * the filter to its registry. (An application of its own, since the series it makes stay.)
 */
@QuarkusTest
@TestProfile(SeriesBoundsInScrapeTest.OwnApplication.class)
class SeriesBoundsInScrapeTest {

    public static class OwnApplication implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("watchgate.watch.max-backlog", "101"); // any override makes a separate application
        }
    }

    @Inject
    MeterRegistry registry;

    @TestHTTPResource(value = "/", management = true)
    URI management;

    @Test
    void theScrapeHoldsAtMostTheBoundOfResourcesPerMeter() {
        for (int i = 0; i < SeriesBounds.MAX_RESOURCES + 20; i++) {
            Counter.builder("watchgate.writes").tags("verb", "create", "resource", "kinds" + i + ".example.com",
                    "subresource", "", "dry_run", "", "code", "201").register(registry).increment();
        }
        String metrics = Samples.scrape(management);
        long series = metrics.lines().filter(line -> line.startsWith("watchgate_writes_total{")
                && line.contains(".example.com\"")).count();
        assertEquals(SeriesBounds.MAX_RESOURCES, series);
    }
}
