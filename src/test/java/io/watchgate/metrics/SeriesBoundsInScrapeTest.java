package io.watchgate.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.http.BrowserFacing;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The bound on series by resource holds in what Prometheus scrapes, not only in a bare registry: Quarkus applies
 * the filter to its registry. The series it makes stay and fill the bound, so later writes are counted no more: it
 * shares the application of the browser-facing tests, which read no metrics, not that of {@code MetricsTest}.
 */
@QuarkusTest
@TestProfile(BrowserFacing.class)
class SeriesBoundsInScrapeTest {

    private static final Pattern RESOURCE = Pattern.compile("[{,]resource=\"([^\"]*)\"");

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
        // whatever resources the application's other tests wrote to count against the bound as well
        String metrics = Samples.scrape(management);
        long resources = metrics.lines().filter(line -> line.startsWith("watchgate_writes_total{"))
                .map(line -> RESOURCE.matcher(line).results().findFirst().orElseThrow().group(1)).distinct().count();
        assertEquals(SeriesBounds.MAX_RESOURCES, resources);
    }
}
