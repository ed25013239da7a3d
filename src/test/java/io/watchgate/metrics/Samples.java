package io.watchgate.metrics;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Values read from the Prometheus text at /q/metrics, by their series as written there (name and labels). */
public final class Samples {

    private Samples() {
    }

    /** What Prometheus scrapes: the text the management interface at {@code management} serves at /q/metrics. */
    public static String scrape(URI management) {
        return given().get(management.resolve("/q/metrics")).asString();
    }

    /** The value of {@code series}, which must be there. */
    public static double value(String metrics, String series) {
        Matcher m = matcher(metrics, series);
        assertTrue(m.find(), series + " is not in:\n" + metrics);
        return Double.parseDouble(m.group(1));
    }

    /** The value of {@code series}, or 0 while it has none: a counter's series appears with its first count. */
    public static double valueOr0(String metrics, String series) {
        Matcher m = matcher(metrics, series);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static Matcher matcher(String metrics, String series) {
        return Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.E+-]+)$").matcher(metrics);
    }
}
