package io.watchgate.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.api.Api;
import io.watchgate.fanout.WatchHubs;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The probes a StatefulSet points at: started, live, and ready unless draining or refusing writes; and the
 * overview of the store that no probe asks, which the Dev UI's Health page shows.
 */
@QuarkusTest
class HealthProbesTest {

    @Inject
    WatchHubs watches;

    @TestHTTPResource("/")
    URI api;

    @Test
    void aRunningServerIsStartedLiveAndReady() {
        given().get(Management.url("/q/health/started")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("store recovered"));
        given().get(Management.url("/q/health/live")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'write-ahead log' }.data.refusal", equalTo("none"));
        given().get(Management.url("/q/health/ready")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'serving' }.data.takesWrites", equalTo(true));
    }

    @Test
    void aDrainingServerIsLiveButNotReady() throws Exception {
        watches.drain().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            given().get(Management.url("/q/health/ready")).then().statusCode(503)
                    .body("status", equalTo("DOWN"))
                    .body("checks.find { it.name == 'serving' }.data.draining", equalTo(true));
            given().get(Management.url("/q/health/live")).then().statusCode(200);
        } finally {
            watches.resume();
        }
        given().get(Management.url("/q/health/ready")).then().statusCode(200);
    }

    @Test
    void theOverviewShowsTheRevisionAndObjectsAndWatchesByResource() throws IOException, InterruptedException {
        String ns = Api.newNamespace("overview");
        Api.createOk(Api.configMaps(ns), Api.configMap("a", ""));
        Api.createOk(Api.configMaps(ns), Api.configMap("b", ""));
        long revision = Api.currentRevision();
        HttpRequest request = HttpRequest.newBuilder(api.resolve(Api.configMaps(ns) + "?watch=true&timeoutSeconds=30"))
                .build();
        HttpResponse<Stream<String>> watch = HttpClient.newHttpClient().send(request,
                HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> events = watch.body()) {
            Iterator<String> lines = events.iterator();
            assertTrue(lines.next().contains("\"ADDED\""), "the watch is served");
            given().get(Management.url("/q/health/well")).then().statusCode(200)
                    .body("checks.find { it.name == 'watchgate' }.status", equalTo("UP"))
                    .body("checks.find { it.name == 'watchgate' }.data.revision",
                            greaterThanOrEqualTo((int) revision))
                    .body("checks.find { it.name == 'watchgate' }.data.oldestRevision", greaterThanOrEqualTo(0))
                    .body("checks.find { it.name == 'watchgate' }.data.'objects configmaps'", greaterThanOrEqualTo(2))
                    .body("checks.find { it.name == 'watchgate' }.data.objects", greaterThanOrEqualTo(3))
                    .body("checks.find { it.name == 'watchgate' }.data.'watches configmaps (chunked)'",
                            greaterThanOrEqualTo(1))
                    .body("checks.find { it.name == 'watchgate' }.data.watches", greaterThanOrEqualTo(1));
            given().get(Management.url("/q/health")).then().statusCode(200)
                    .body("checks.name", hasItem("watchgate"));
        }
    }
}
