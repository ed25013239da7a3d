package io.watchgate.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Ages read as kubectl prints them. */
class HumanDurationTest {

    @Test
    void agesRoundAsApimachineryRoundsThem() {
        assertEquals("0s", HumanDuration.of(Duration.ofMillis(-500)));
        assertEquals("<invalid>", HumanDuration.of(Duration.ofSeconds(-5)));
        assertEquals("45s", HumanDuration.of(Duration.ofSeconds(45)));
        assertEquals("119s", HumanDuration.of(Duration.ofSeconds(119)));
        assertEquals("3m20s", HumanDuration.of(Duration.ofSeconds(200)));
        assertEquals("5m", HumanDuration.of(Duration.ofMinutes(5)));
        assertEquals("42m", HumanDuration.of(Duration.ofMinutes(42).plusSeconds(7)));
        assertEquals("5h3m", HumanDuration.of(Duration.ofHours(5).plusMinutes(3)));
        assertEquals("20h", HumanDuration.of(Duration.ofHours(20).plusMinutes(3)));
        assertEquals("3d4h", HumanDuration.of(Duration.ofHours(76)));
        assertEquals("30d", HumanDuration.of(Duration.ofDays(30)));
        assertEquals("2y10d", HumanDuration.of(Duration.ofDays(740)));
        assertEquals("9y", HumanDuration.of(Duration.ofDays(9 * 365 + 20)));
    }
}
