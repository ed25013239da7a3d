package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Many large writes at once, each a legal object of megabytes of small fields, whose tree takes several times its
 * JSON: the server computes as many at once as its memory budget lets it, refuses the others before parsing them
 * (429 with Retry-After), and neither runs out of memory nor stops an event loop meanwhile. Before the writes
 * reserved their working memory, eight such writers going on for 25 s at {@code -Xmx512m} got
 * {@code OutOfMemoryError} 500s, and event loops waited up to 732 ms for the commit lock (docs/benchmarks.md).
 */
@ExtendWith(SharedHostileApp.class)
@Isolated
class LargeWritesIT {

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final String BLOBS = "/apis/blobs.hostile.test/v1/namespaces/default/blobs";
    private static final int WRITERS = 8;
    /**
     * About 1.4 MB of JSON, some 8 MB as a tree: with its managedFields (a member per field, as large again) under
     * the 3 MiB an object may take.
     */
    private static final int FIELDS = 80_000;

    static HostileApp app;

    @BeforeAll
    static void start(HostileApp shared) throws Exception {
        app = shared;
        HttpResponse<byte[]> created = post(CRDS, "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
                + "\"CustomResourceDefinition\",\"metadata\":{\"name\":\"blobs.blobs.hostile.test\"},\"spec\":{\"group\":"
                + "\"blobs.hostile.test\",\"scope\":\"Namespaced\",\"names\":{\"plural\":\"blobs\",\"kind\":\"Blobs\"},"
                + "\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
                + "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\","
                + "\"x-kubernetes-preserve-unknown-fields\":true}}}}}]}}");
        assertEquals(201, created.statusCode(), new String(created.body(), StandardCharsets.UTF_8));
    }

    @Test
    void writersOfMegabyteObjectsTakeTurnsAsTheBudgetSaysAndOthersAreServedMeanwhile() throws Exception {
        AtomicInteger refused = new AtomicInteger();
        List<Integer> answers = Hostile.whileOthersAreServed(app, () -> {
            ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
            try {
                List<Future<List<Integer>>> each = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    String name = "blob-" + w;
                    each.add(writers.submit(() -> {
                        HttpResponse<byte[]> created = Hostile.admitted(() -> post(BLOBS, blob(name, 0, null)), 120,
                                refused);
                        // a custom resource is replaced at the resourceVersion the writer read, as kube requires
                        return List.of(created.statusCode(), admitted(refused, () -> put(BLOBS + "/" + name,
                                blob(name, 1, resourceVersionOf(created)))));
                    }));
                }
                List<Integer> codes = new ArrayList<>();
                for (Future<List<Integer>> writer : each) {
                    codes.addAll(writer.get());
                }
                return codes;
            } finally {
                writers.shutdownNow();
            }
        });
        List<Integer> expected = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            expected.addAll(List.of(201, 200));
        }
        assertEquals(expected, answers, "every write got in, in the end");
        // at -Xmx512m the writes may reserve 64 MiB together, and each of these 67 MB: they ran one at a time
        assertTrue(refused.get() > 0, "no write was asked to wait");
    }

    /** Sends {@code write} until it is not refused for memory, waiting as told; its final status code. */
    private static int admitted(AtomicInteger refused, Hostile.Refusable write) throws Exception {
        return Hostile.admitted(write, 120, refused).statusCode();
    }

    /** @param resourceVersion the version it replaces, or null for a create */
    private static String blob(String name, int round, String resourceVersion) {
        StringBuilder body = new StringBuilder(3_000_000).append("{\"apiVersion\":\"blobs.hostile.test/v1\",\"kind\":")
                .append("\"Blobs\",\"metadata\":{\"name\":\"").append(name).append("\"")
                .append(resourceVersion == null ? "" : ",\"resourceVersion\":\"" + resourceVersion + "\"")
                .append("},\"spec\":{\"round\":").append(round);
        for (int i = 0; i < FIELDS; i++) {
            body.append(",\"f").append(i).append("\":").append(i);
        }
        return body.append("}}").toString();
    }

    /** The resourceVersion in a created object's metadata, which comes before its megabytes of spec. */
    private static String resourceVersionOf(HttpResponse<byte[]> created) throws java.io.IOException {
        String version = new com.fasterxml.jackson.databind.ObjectMapper().readTree(created.body())
                .path("metadata").path("resourceVersion").asText("");
        assertTrue(version.matches("\\d+"), () -> "a resourceVersion in " + new String(created.body(), 0,
                Math.min(created.body().length, 4096), StandardCharsets.UTF_8));
        return version;
    }

    private static HttpResponse<byte[]> post(String path, String body) throws Exception {
        return app.send(app.request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static HttpResponse<byte[]> put(String path, String body) throws Exception {
        return app.send(app.request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }
}
