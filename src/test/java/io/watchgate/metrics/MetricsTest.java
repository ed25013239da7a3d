package io.watchgate.metrics;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.api.Api;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What Prometheus scrapes at /q/metrics: the store, the watches, and request latencies by path template. */
@QuarkusTest
class MetricsTest {

    /** The management interface, where health and metrics are served. */
    @TestHTTPResource(value = "/", management = true)
    URI management;

    private String scrape() {
        return given().get(management.resolve("/q/metrics")).asString();
    }

    private static double sample(String metrics, String series) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.E+-]+)$").matcher(metrics);
        assertTrue(m.find(), series + " is not in:\n" + metrics);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void theStoreAndItsObjectsAreCounted() {
        String ns = newNamespace("metrics");
        String first = scrape();
        // a resource gets its series with its first object
        double before = first.contains("watchgate_objects{resource=\"configmaps\"}")
                ? sample(first, "watchgate_objects{resource=\"configmaps\"}") : 0;
        createOk(configMaps(ns), configMap("a", ""));
        createOk(configMaps(ns), configMap("b", ""));
        given().delete(configMaps(ns) + "/a").then().statusCode(200);
        long revision = Api.currentRevision();
        String metrics = scrape();
        assertEquals(before + 1, sample(metrics, "watchgate_objects{resource=\"configmaps\"}"));
        assertTrue(sample(metrics, "watchgate_store_revision") >= revision);
        assertTrue(sample(metrics, "watchgate_store_oldest_revision") >= 0);
    }

    @Test
    void watchesAreCountedByResourceAndFormWithTheEventsAndBookmarksTheyWereSent() {
        String ns = newNamespace("sent");
        createOk(configMaps(ns), configMap("a", ""));
        String before = scrape();
        double events = before.contains("watchgate_watch_events_sent_total ")
                ? sample(before, "watchgate_watch_events_sent_total") : 0;
        double bookmarks = before.contains("watchgate_watch_bookmarks_sent_total ")
                ? sample(before, "watchgate_watch_bookmarks_sent_total") : 0;
        // from resourceVersion 0: the object as ADDED, then a bookmark as the watch times out
        given().queryParam("watch", "true").queryParam("resourceVersion", "0")
                .queryParam("allowWatchBookmarks", "true").queryParam("timeoutSeconds", "1")
                .get(configMaps(ns)).then().statusCode(200);
        String after = scrape();
        assertTrue(sample(after, "watchgate_watch_events_sent_total") >= events + 1);
        assertTrue(sample(after, "watchgate_watch_bookmarks_sent_total") >= bookmarks + 1);
        assertTrue(sample(after, "watchgate_watches{form=\"chunked\",resource=\"configmaps\"}") >= 0);
    }

    @Test
    void requestLatenciesAreHistogramsByPathTemplateWithWatchesApart() {
        String ns = newNamespace("latency");
        createOk(configMaps(ns), configMap("a", ""));
        given().get(configMaps(ns)).then().statusCode(200);
        given().queryParam("watch", "true").queryParam("timeoutSeconds", "1").get(configMaps(ns))
                .then().statusCode(200);
        String metrics = scrape();
        assertTrue(sample(metrics, "watchgate_list_items_count{resource=\"configmaps\"}") >= 1);
        assertTrue(sample(metrics, "watchgate_list_items_max{resource=\"configmaps\"}") >= 1);
        assertTrue(sample(metrics, "http_server_requests_seconds_bucket{method=\"GET\",outcome=\"SUCCESS\",status=\"200\","
                + "uri=\"/api/{version}/namespaces/{namespace}/{plural}\",le=\"+Inf\"}") >= 1);
        assertTrue(sample(metrics, "http_server_requests_seconds_count{method=\"GET\",outcome=\"SUCCESS\",status=\"200\","
                + "uri=\"/api/{version}/watch/namespaces/{namespace}/{plural}\"}") >= 1);
        assertTrue(!metrics.contains("uri=\"/api/v1/namespaces/" + ns), "no series per namespace");
        assertTrue(sample(metrics, "watchgate_watches_active") >= 0);
        assertTrue(sample(metrics, "watchgate_watches_ended_slow_total") >= 0);
    }

    private static double countOr0(String metrics, String series) {
        return metrics.contains(series + " ") ? sample(metrics, series) : 0;
    }

    @Test
    void writesAreCountedByVerbResourceAndCodeRejectedOnesToo() {
        String ns = newNamespace("writes");
        String created = "watchgate_writes_total{code=\"201\",resource=\"configmaps\",subresource=\"\",verb=\"create\"}";
        String taken = "watchgate_writes_total{code=\"409\",resource=\"configmaps\",subresource=\"\",verb=\"create\"}";
        String patched = "watchgate_writes_total{code=\"200\",resource=\"configmaps\",subresource=\"\",verb=\"patch\"}";
        String deleted = "watchgate_writes_total{code=\"200\",resource=\"configmaps\",subresource=\"\",verb=\"delete\"}";
        String unknown = "watchgate_writes_total{code=\"404\",resource=\"unknown\",subresource=\"\",verb=\"create\"}";
        String before = scrape();

        createOk(configMaps(ns), configMap("a", ""));
        Api.create(configMaps(ns), configMap("a", "")).then().statusCode(409);
        given().contentType("application/merge-patch+json").body("{\"data\":{\"k\":\"v\"}}")
                .patch(configMaps(ns) + "/a").then().statusCode(200);
        given().delete(configMaps(ns) + "/a").then().statusCode(200);
        Api.create("/api/v1/namespaces/" + ns + "/nosuchthings", configMap("b", "")).then().statusCode(404);

        String after = scrape();
        assertEquals(countOr0(before, created) + 1, sample(after, created));
        assertEquals(countOr0(before, taken) + 1, sample(after, taken));
        assertEquals(countOr0(before, patched) + 1, sample(after, patched));
        assertEquals(countOr0(before, deleted) + 1, sample(after, deleted));
        assertEquals(countOr0(before, unknown) + 1, sample(after, unknown));
        assertTrue(!after.contains("nosuchthings"), "a path's words never become a series");
    }
}
