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
import io.restassured.RestAssured;
import io.watchgate.api.Api;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What Prometheus scrapes at /q/metrics: the store, the watches, and request latencies by path template. */
@QuarkusTest
class MetricsTest {

    /** The management interface, where health and metrics are served. */
    @TestHTTPResource(value = "/", management = true)
    URI management;

    @Inject
    Store store;

    @Test
    void theStoreAndItsObjectsAreCounted() {
        String ns = newNamespace("metrics");
        String first = Samples.scrape(management);
        // a resource gets its series with its first object
        double before = valueOr0(first, "watchgate_objects{resource=\"configmaps\"}");
        createOk(configMaps(ns), configMap("a", ""));
        createOk(configMaps(ns), configMap("b", ""));
        given().delete(configMaps(ns) + "/a").then().statusCode(200);
        long revision = Api.currentRevision(); // nothing else writes meanwhile
        long oldestBefore = store.oldestRevision();
        String metrics = Samples.scrape(management);
        long oldestAfter = store.oldestRevision(); // compaction runs on its own timer, and may have run meanwhile
        assertEquals(before + 1, value(metrics, "watchgate_objects{resource=\"configmaps\"}"));
        assertEquals(revision, value(metrics, "watchgate_store_revision"));
        double oldest = value(metrics, "watchgate_store_oldest_revision");
        assertTrue(oldestBefore <= oldest && oldest <= oldestAfter, "the oldest revision readable, " + oldestBefore
                + " as the scrape began: " + oldest);
    }

    @Test
    void watchesAreCountedByResourceAndFormWithTheEventsAndBookmarksTheyWereSent() {
        String ns = newNamespace("sent");
        createOk(configMaps(ns), configMap("a", ""));
        String before = Samples.scrape(management);
        double events = valueOr0(before, "watchgate_watch_events_sent_total");
        double bookmarks = valueOr0(before, "watchgate_watch_bookmarks_sent_total");
        // from resourceVersion 0: the object as ADDED, then bookmarks until the watch times out
        List<String> sent = given().queryParam("watch", "true").queryParam("resourceVersion", "0")
                .queryParam("allowWatchBookmarks", "true").queryParam("timeoutSeconds", "1")
                .get(configMaps(ns)).then().statusCode(200).extract().asString().lines().toList();
        long bookmarksSent = sent.stream().filter(line -> line.contains("\"type\":\"BOOKMARK\"")).count();
        assertTrue(bookmarksSent >= 1, "a bookmark as the watch timed out: " + sent);
        // nothing else was written meanwhile: no other watch was sent anything
        String after = Samples.scrape(management);
        assertEquals(events + sent.size() - bookmarksSent, value(after, "watchgate_watch_events_sent_total"));
        assertEquals(bookmarks + bookmarksSent, value(after, "watchgate_watch_bookmarks_sent_total"));
    }

    @Test
    void openWatchesAreCountedByResourceAndFormWhileTheyAreOpen() throws Exception {
        // a type no other test watches, so that what is open is this test's alone
        String ns = newNamespace("open");
        String series = "watchgate_watches{form=\"chunked\",resource=\"serviceaccounts\"}";
        double open = valueOr0(Samples.scrape(management), series);
        double active = value(Samples.scrape(management), "watchgate_watches_active");
        try (Socket watch = openWatch("/api/v1/namespaces/" + ns + "/serviceaccounts?watch=true")) {
            awaitSample(series, open + 1);
            assertEquals(active + 1, value(Samples.scrape(management), "watchgate_watches_active"));
        }
        awaitSample(series, open); // the connection closed: the watch ended
        assertEquals(active, value(Samples.scrape(management), "watchgate_watches_active"));
    }

    @Test
    void aWatchEndedForItsClientNotReadingIsCountedAsEndedSlow() throws Exception {
        String ns = newNamespace("slow");
        String big = "x".repeat(100_000);
        String endedSlow = "watchgate_watches_ended_slow_total";
        double before = valueOr0(Samples.scrape(management), endedSlow);
        try (Socket stalled = openWatch(configMaps(ns) + "?watch=true&resourceVersion=" + Api.currentRevision())) {
            // its buffers take some megabytes first, then the events for it back up until the server gives up
            int written = 0;
            while (valueOr0(Samples.scrape(management), endedSlow) == before) {
                assertTrue(written < 2_000, "the client that stopped reading was not ended");
                for (int i = 0; i < 10; i++, written++) {
                    createOk(configMaps(ns), configMap("cm-" + written, "\"data\":{\"payload\":\"" + big + "\"}"));
                }
            }
        }
        assertEquals(before + 1, value(Samples.scrape(management), endedSlow));
    }

    /** Sends a watch request, reads the response head, and reads nothing more. */
    private static Socket openWatch(String pathAndQuery) throws Exception {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("localhost", RestAssured.port));
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            assertTrue(b >= 0, "the server closed the watch before answering: " + head);
            head.append((char) b);
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 200"), head.toString());
        return socket;
    }

    /** A gauge that follows a connection changes as the server hears of it: scraped until it shows the value. */
    private void awaitSample(String series, double expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (double seen = valueOr0(Samples.scrape(management), series); seen != expected; seen = valueOr0(Samples.scrape(management), series)) {
            assertTrue(System.nanoTime() < deadline, series + " is " + seen + ", not " + expected);
        }
    }

    @Test
    void requestLatenciesAreHistogramsByPathTemplateWithWatchesApart() {
        String ns = newNamespace("latency");
        createOk(configMaps(ns), configMap("a", ""));
        given().get(configMaps(ns)).then().statusCode(200);
        given().queryParam("watch", "true").queryParam("timeoutSeconds", "1").get(configMaps(ns))
                .then().statusCode(200);
        String metrics = Samples.scrape(management);
        assertTrue(value(metrics, "watchgate_list_items_count{resource=\"configmaps\"}") >= 1);
        assertTrue(value(metrics, "watchgate_list_items_max{resource=\"configmaps\"}") >= 1);
        assertTrue(value(metrics, "http_server_requests_seconds_bucket{method=\"GET\",outcome=\"SUCCESS\",status=\"200\","
                + "uri=\"/api/{version}/namespaces/{namespace}/{plural}\",le=\"+Inf\"}") >= 1);
        assertTrue(value(metrics, "http_server_requests_seconds_count{method=\"GET\",outcome=\"SUCCESS\",status=\"200\","
                + "uri=\"/api/{version}/watch/namespaces/{namespace}/{plural}\"}") >= 1);
        assertTrue(!metrics.contains("uri=\"/api/v1/namespaces/" + ns), "no series per namespace");
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

        String before = Samples.scrape(management);
        writes.values().forEach(Runnable::run);
        String after = Samples.scrape(management);
        writes.keySet().forEach(series -> assertEquals(valueOr0(before, series) + 1, value(after, series), series));
        assertTrue(!after.contains("nosuchthings"), "a path's words never become a series");
    }
}
