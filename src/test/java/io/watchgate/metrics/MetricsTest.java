package io.watchgate.metrics;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static io.watchgate.metrics.Samples.value;
import static io.watchgate.metrics.Samples.valueOr0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.api.Api;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
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

    @Test
    void theStoreAndItsObjectsAreCounted() {
        String ns = newNamespace("metrics");
        String first = scrape();
        // a resource gets its series with its first object
        double before = valueOr0(first, "watchgate_objects{resource=\"configmaps\"}");
        createOk(configMaps(ns), configMap("a", ""));
        createOk(configMaps(ns), configMap("b", ""));
        given().delete(configMaps(ns) + "/a").then().statusCode(200);
        long revision = Api.currentRevision();
        String metrics = scrape();
        assertEquals(before + 1, value(metrics, "watchgate_objects{resource=\"configmaps\"}"));
        assertTrue(value(metrics, "watchgate_store_revision") >= revision);
        assertTrue(value(metrics, "watchgate_store_oldest_revision") >= 0);
    }

    @Test
    void watchesAreCountedByResourceAndFormWithTheEventsAndBookmarksTheyWereSent() {
        String ns = newNamespace("sent");
        createOk(configMaps(ns), configMap("a", ""));
        String before = scrape();
        double events = valueOr0(before, "watchgate_watch_events_sent_total");
        double bookmarks = valueOr0(before, "watchgate_watch_bookmarks_sent_total");
        // from resourceVersion 0: the object as ADDED, then a bookmark as the watch times out
        given().queryParam("watch", "true").queryParam("resourceVersion", "0")
                .queryParam("allowWatchBookmarks", "true").queryParam("timeoutSeconds", "1")
                .get(configMaps(ns)).then().statusCode(200);
        String after = scrape();
        assertTrue(value(after, "watchgate_watch_events_sent_total") >= events + 1);
        assertTrue(value(after, "watchgate_watch_bookmarks_sent_total") >= bookmarks + 1);
        assertTrue(value(after, "watchgate_watches{form=\"chunked\",resource=\"configmaps\"}") >= 0);
    }

    @Test
    void requestLatenciesAreHistogramsByPathTemplateWithWatchesApart() {
        String ns = newNamespace("latency");
        createOk(configMaps(ns), configMap("a", ""));
        given().get(configMaps(ns)).then().statusCode(200);
        given().queryParam("watch", "true").queryParam("timeoutSeconds", "1").get(configMaps(ns))
                .then().statusCode(200);
        String metrics = scrape();
        assertTrue(value(metrics, "watchgate_list_items_count{resource=\"configmaps\"}") >= 1);
        assertTrue(value(metrics, "watchgate_list_items_max{resource=\"configmaps\"}") >= 1);
        assertTrue(value(metrics, "http_server_requests_seconds_bucket{method=\"GET\",outcome=\"SUCCESS\",status=\"200\","
                + "uri=\"/api/{version}/namespaces/{namespace}/{plural}\",le=\"+Inf\"}") >= 1);
        assertTrue(value(metrics, "http_server_requests_seconds_count{method=\"GET\",outcome=\"SUCCESS\",status=\"200\","
                + "uri=\"/api/{version}/watch/namespaces/{namespace}/{plural}\"}") >= 1);
        assertTrue(!metrics.contains("uri=\"/api/v1/namespaces/" + ns), "no series per namespace");
        assertTrue(value(metrics, "watchgate_watches_active") >= 0);
        assertTrue(value(metrics, "watchgate_watches_ended_slow_total") >= 0);
    }

    private static String writes(String verb, String resource, String subresource, String dryRun, int code) {
        return "watchgate_writes_total{code=\"" + code + "\",dry_run=\"" + dryRun + "\",resource=\"" + resource
                + "\",subresource=\"" + subresource + "\",verb=\"" + verb + "\"}";
    }

    @Test
    void writesAreCountedByVerbResourceAndCodeRejectedOnesToo() {
        String ns = newNamespace("writes");
        Map<String, Runnable> writes = new LinkedHashMap<>();
        writes.put(writes("create", "configmaps", "", "", 201), () -> createOk(configMaps(ns), configMap("a", "")));
        writes.put(writes("create", "configmaps", "", "", 409),
                () -> Api.create(configMaps(ns), configMap("a", "")).then().statusCode(409));
        writes.put(writes("create", "configmaps", "", "All", 201),
                () -> given().queryParam("dryRun", "All").contentType("application/json").body(configMap("b", ""))
                        .post(configMaps(ns)).then().statusCode(201));
        writes.put(writes("patch", "configmaps", "", "", 200),
                () -> given().contentType("application/merge-patch+json").body("{\"data\":{\"k\":\"v\"}}")
                        .patch(configMaps(ns) + "/a").then().statusCode(200));
        // core types have no status subresource (README, "Not yet")
        writes.put(writes("update", "configmaps", "status", "", 404),
                () -> given().contentType("application/json").body(configMap("a", ""))
                        .put(configMaps(ns) + "/a/status").then().statusCode(404));
        writes.put(writes("delete", "configmaps", "", "", 200),
                () -> given().delete(configMaps(ns) + "/a").then().statusCode(200));
        writes.put(writes("deletecollection", "configmaps", "", "", 200),
                () -> given().delete(configMaps(ns)).then().statusCode(200));
        // refused before any resource method: the body guard, and paths that name nothing
        writes.put(writes("create", "configmaps", "", "", 413),
                () -> given().contentType("application/json").body(new byte[3 * 1024 * 1024 + 10])
                        .post(configMaps(ns)).then().statusCode(413));
        writes.put(writes("create", "unknown", "", "", 404),
                () -> Api.create("/api/v1/namespaces/" + ns + "/nosuchthings", configMap("c", ""))
                        .then().statusCode(404));
        writes.put(writes("create", "configmaps", "unknown", "", 404),
                () -> Api.create(configMaps(ns) + "/a/scale", configMap("c", "")).then().statusCode(404));

        String before = scrape();
        writes.values().forEach(Runnable::run);
        String after = scrape();
        writes.keySet().forEach(series -> assertEquals(valueOr0(before, series) + 1, value(after, series), series));
        assertTrue(!after.contains("nosuchthings"), "a path's words never become a series");
    }
}
