package io.watchgate.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.watchgate.api.Api;
import io.watchgate.store.Store;
import io.watchgate.watch.fanout.WatchHubs;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The probes a StatefulSet points at: started, live, and ready unless draining or refusing writes; and the
 * overview of the store that no probe asks, which the Dev UI's Health page shows.
 */
@QuarkusTest
class HealthProbesTest {

    /** The management interface, where health and metrics are served. */
    @TestHTTPResource(value = "/", management = true)
    URI management;

    @Inject
    WatchHubs watches;

    @Inject
    Store store;

    @TestHTTPResource("/")
    URI api;

    @Test
    void aRunningServerIsStartedLiveAndReady() {
        given().get(management.resolve("/q/health/started")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("store recovered"));
        given().get(management.resolve("/q/health/live")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'write-ahead log' }.data.refusal", equalTo("none"));
        given().get(management.resolve("/q/health/ready")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'serving' }.data.takesWrites", equalTo(true));
    }

    @Test
    void aDrainingServerIsLiveButNotReady() throws Exception {
        watches.drain().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            given().get(management.resolve("/q/health/ready")).then().statusCode(503)
                    .body("status", equalTo("DOWN"))
                    .body("checks.find { it.name == 'serving' }.data.draining", equalTo(true));
            given().get(management.resolve("/q/health/live")).then().statusCode(200);
        } finally {
            watches.resume();
        }
        given().get(management.resolve("/q/health/ready")).then().statusCode(200);
    }

    @Test
    void theOverviewShowsTheRevisionAndObjectsAndWatchesByResource() throws IOException, InterruptedException {
        String ns = Api.newNamespace("overview");
        Api.createOk(Api.configMaps(ns), Api.configMap("a", ""));
        Api.createOk(Api.configMaps(ns), Api.configMap("b", ""));
        // watched by no other test, so that the one watch open on it is this one
        String secrets = "/api/v1/namespaces/" + ns + "/secrets";
        Api.createOk(secrets, "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"}}");
        long revision = Api.currentRevision(); // nothing else writes meanwhile
        int watching = watches.active();
        HttpRequest request = HttpRequest.newBuilder(api.resolve(secrets + "?watch=true&resourceVersion=0"
                + "&timeoutSeconds=30")).build();
        HttpResponse<Stream<String>> watch = HttpClient.newHttpClient().send(request,
                HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> events = watch.body()) {
            Iterator<String> lines = events.iterator();
            assertTrue(lines.next().contains("\"ADDED\""), "the watch is served");
            long oldestBefore = store.oldestRevision();
            JsonPath overview = given().get(management.resolve("/q/health/well")).then().statusCode(200)
                    .extract().jsonPath().setRootPath("checks.find { it.name == 'watchgate' }");
            long oldestAfter = store.oldestRevision(); // compaction runs on its own timer, and may have run meanwhile
            assertEquals("UP", overview.getString("status"));
            assertEquals(revision, number(overview, "revision"));
            long oldest = number(overview, "oldestRevision");
            assertTrue(oldestBefore <= oldest && oldest <= oldestAfter, "the oldest revision readable, "
                    + oldestBefore + " as the overview began: " + oldest);
            assertEquals(listed("/api/v1/configmaps"), number(overview, "'objects configmaps'"));
            assertEquals(listed("/api/v1/namespaces"), number(overview, "'objects namespaces'"));
            assertEquals(listed("/api/v1/secrets"), number(overview, "'objects secrets'"));
            Map<String, Object> data = overview.getMap("data");
            long byResource = data.entrySet().stream().filter(e -> e.getKey().startsWith("objects "))
                    .mapToLong(e -> Long.parseLong((String) e.getValue())).sum();
            assertEquals(byResource, number(overview, "objects"), "the total is the sum by resource: " + data);
            assertEquals(1, number(overview, "'watches secrets (chunked)'"));
            assertEquals(watching + 1, number(overview, "watches"));
            given().get(management.resolve("/q/health")).then().statusCode(200)
                    .body("checks.name", hasItem("watchgate"));
        }
        // no watch of this test outlives it
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (watches.active() != watching) {
            assertTrue(System.nanoTime() < deadline, "the watch closed with its stream was not ended");
            Thread.onSpinWait();
        }
    }

    private static long listed(String path) {
        return given().get(path).then().statusCode(200).extract().jsonPath().getList("items").size();
    }

    /** The overview's values are strings in the JSON: the Dev UI's health card shows no others. */
    private static long number(JsonPath overview, String key) {
        Object value = overview.get("data." + key);
        assertTrue(value instanceof String, key + " is a string: " + value);
        return Long.parseLong((String) value);
    }
}
