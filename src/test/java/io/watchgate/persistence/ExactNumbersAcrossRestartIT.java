package io.watchgate.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged application restarted: an object's numbers read back exactly as before (decimals are not turned
 * into doubles by the disk), and so an identical update after the restart is a no-op, as it was before.
 */
class ExactNumbersAcrossRestartIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final String GAUGES = "/apis/numbers.restart.test/v1/namespaces/default/gauges";
    /**
     * Free-form JSON (a custom resource's spec that keeps unknown fields), where any number may stand that
     * kube-apiserver would read: 1e400 is beyond a float64, and refused (400) as it is there; 1e300 is a double's
     * {@code 1.0E300}.
     */
    private static final String NUMBERS = "{\"tenth\":0.1,\"huge\":1e300,\"big\":12345678901234567890123,"
            + "\"negativeZero\":-0.0,\"trailingZero\":1.10}";

    @TempDir
    Path dir;

    private static String resourceVersion(String body) throws Exception {
        return JSON.readTree(body).at("/metadata/resourceVersion").asText();
    }

    @Test
    void anIdenticalUpdateAfterARestartIsANoOpAndTheNumbersReadTheSame() throws Exception {
        Path data = dir.resolve("data");
        Path log = dir.resolve("app.log");
        String before;
        try (PackagedApp app = PackagedApp.start(data, log)) {
            HttpResponse<String> defined = app.post(CRDS, "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
                    + "\"CustomResourceDefinition\",\"metadata\":{\"name\":\"gauges.numbers.restart.test\"},\"spec\":"
                    + "{\"group\":\"numbers.restart.test\",\"scope\":\"Namespaced\",\"names\":{\"plural\":\"gauges\","
                    + "\"kind\":\"Gauge\"},\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":"
                    + "{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\","
                    + "\"x-kubernetes-preserve-unknown-fields\":true}}}}}]}}");
            assertEquals(201, defined.statusCode(), defined.body());
            HttpResponse<String> beyond = app.post(GAUGES, "{\"apiVersion\":\"numbers.restart.test/v1\","
                    + "\"kind\":\"Gauge\",\"metadata\":{\"name\":\"beyond\"},\"spec\":{\"huge\":1e400}}");
            assertEquals(400, beyond.statusCode(), beyond.body());
            HttpResponse<String> created = app.post(GAUGES, "{\"apiVersion\":\"numbers.restart.test/v1\","
                    + "\"kind\":\"Gauge\",\"metadata\":{\"name\":\"numbers\"},\"spec\":" + NUMBERS + "}");
            assertEquals(201, created.statusCode(), created.body());
            before = app.get(GAUGES + "/numbers").body();
            HttpResponse<String> same = app.put(GAUGES + "/numbers", before);
            assertEquals(200, same.statusCode(), same.body());
            assertEquals(resourceVersion(before), resourceVersion(same.body()), "a no-op before the restart");
            app.terminate(30);
        }
        try (PackagedApp app = PackagedApp.start(data, log)) {
            String after = app.get(GAUGES + "/numbers").body();
            assertEquals(before, after, "the same object, byte for byte");
            assertTrue(after.contains("\"spec\":{\"tenth\":0.1,\"huge\":1E+300,\"big\":12345678901234567890123,"
                    + "\"negativeZero\":0.0,\"trailingZero\":1.10}"), after);
            HttpResponse<String> same = app.put(GAUGES + "/numbers", after);
            assertEquals(200, same.statusCode(), same.body());
            assertEquals(resourceVersion(before), resourceVersion(same.body()), "a no-op after the restart too");
            assertEquals(before, app.get(GAUGES + "/numbers").body(), "and the object is as it was");
        }
    }
}
