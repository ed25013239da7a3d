package io.watchgate.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** Series by resource are bounded per meter, so that definitions made and deleted without end cannot grow them. */
class SeriesBoundsTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    SeriesBoundsTest() {
        registry.config().meterFilter(new SeriesBounds().resourcesPerMeter());
    }

    private void write(String resource) {
        Counter.builder("watchgate.writes").tags("verb", "create", "resource", resource).register(registry)
                .increment();
    }

    @Test
    void aMeterTakesNoResourcesPastTheBoundButKeepsCountingThoseItHas() {
        for (int i = 0; i < SeriesBounds.MAX_RESOURCES + 100; i++) {
            write("things" + i + ".example.com");
        }
        write("things0.example.com");
        assertEquals(SeriesBounds.MAX_RESOURCES, registry.find("watchgate.writes").counters().size());
        assertEquals(2, registry.get("watchgate.writes").tag("resource", "things0.example.com").counter().count());
        assertEquals(null, registry.find("watchgate.writes").tag("resource", "things" + SeriesBounds.MAX_RESOURCES
                + ".example.com").counter());
    }

    @Test
    void otherMetersAndOtherTagsAreNotBounded() {
        for (int i = 0; i < SeriesBounds.MAX_RESOURCES + 10; i++) {
            Counter.builder("http.server.requests").tag("uri", "/x" + i).register(registry).increment();
        }
        assertEquals(SeriesBounds.MAX_RESOURCES + 10, registry.find("http.server.requests").counters().size());
    }
}
