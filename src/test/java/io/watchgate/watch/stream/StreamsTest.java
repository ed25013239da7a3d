package io.watchgate.watch.stream;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.currentRevision;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.watchgate.store.HistoryCompaction;
import io.watchgate.store.Store;
import io.watchgate.watch.EventSourceReader;
import io.watchgate.watch.EventSourceReader.Sse;
import io.watchgate.watch.WatchConnection;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A stream of many watches, as a dashboard uses one: {@code GET /streams?watch=<collection URL>&watch=...}, one
 * EventSource for all of them, in one revision order, resumed as a whole with one Last-Event-ID.
 */
@QuarkusTest
class StreamsTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String GROUP = "streams.watchgate.test";

    @Inject
    Store store;

    @Inject
    HistoryCompaction history;

    @Test
    void threeWatchesOnOneStreamSeeExactlyWhatThreeSingleWatchesSeeInOneOrder() throws Exception {
        String ns1 = newNamespace("stream-a");
        String ns2 = newNamespace("stream-b");
        String gadgets = defineGadgets();
        String selected = "/api/v1/namespaces/" + ns1 + "/configmaps?labelSelector=app%3Dshown";
        String secrets = "/api/v1/namespaces/" + ns2 + "/secrets";
        String allGadgets = "/apis/" + GROUP + "/v1/" + gadgets;
        long from = currentRevision();
        List<String> urls = List.of(selected + "&resourceVersion=" + from, secrets + "?resourceVersion=" + from,
                allGadgets + "?resourceVersion=" + from);
        try (WatchConnection stream = WatchConnection.open(streamOf(urls, ""));
                WatchConnection single1 = WatchConnection.open(selected + "&watch=true&resourceVersion=" + from);
                WatchConnection single2 = WatchConnection.open(secrets + "?watch=true&resourceVersion=" + from);
                WatchConnection single3 = WatchConnection.open(allGadgets + "?watch=true&resourceVersion=" + from)) {
            assertEquals(200, stream.status());
            assertEquals("text/event-stream; charset=utf-8", stream.header("Content-Type"));

            ExecutorService writers = Executors.newFixedThreadPool(3);
            List<Future<?>> done = new ArrayList<>();
            done.add(writers.submit(() -> {
                for (int i = 0; i < 40; i++) { // in and out of the selector, and in another namespace
                    put("/api/v1/namespaces/" + ns1 + "/configmaps", configMap("cm-" + i % 5, i % 3 == 0 ? "shown"
                            : "hidden"));
                    put("/api/v1/namespaces/" + ns2 + "/configmaps", configMap("elsewhere-" + i % 4, "shown"));
                }
            }));
            done.add(writers.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    put("/api/v1/namespaces/" + ns2 + "/secrets", secret("s-" + i % 5, i));
                    put("/api/v1/namespaces/" + ns1 + "/secrets", secret("not-watched-" + i % 3, i));
                }
            }));
            done.add(writers.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    put("/apis/" + GROUP + "/v1/namespaces/" + (i % 2 == 0 ? ns1 : ns2) + "/" + gadgets,
                            gadget("g-" + i % 7, i));
                }
            }));
            for (Future<?> writer : done) {
                writer.get(120, TimeUnit.SECONDS);
            }
            writers.shutdown();
            // a last change each watch sees, so that every reader knows when it has everything
            put("/api/v1/namespaces/" + ns1 + "/configmaps", configMap("last", "shown"));
            put("/api/v1/namespaces/" + ns2 + "/secrets", secret("last", 0));
            put("/apis/" + GROUP + "/v1/namespaces/" + ns1 + "/" + gadgets, gadget("last", 0));

            Map<String, List<String>> streamed = new LinkedHashMap<>();
            urls.forEach(url -> streamed.put(url, new ArrayList<>()));
            EventSourceReader events = new EventSourceReader(stream);
            long lastId = 0;
            int lastsSeen = 0;
            while (lastsSeen < 3) {
                Sse sse = events.next();
                JsonNode data = sse.json();
                if (sse.event().equals("BOOKMARK")) {
                    continue;
                }
                String watch = data.path("watch").asText();
                assertTrue(streamed.containsKey(watch), "an event names its watch as given: " + sse);
                assertEquals(sse.event(), data.path("type").asText());
                streamed.get(watch).add(describe(data));
                if (sse.id() != null) {
                    long id = Long.parseLong(sse.id());
                    assertTrue(id > lastId, "ids increase: " + id + " after " + lastId);
                    lastId = id;
                }
                if (data.path("object").path("metadata").path("name").asText().equals("last")) {
                    lastsSeen++;
                }
            }
            assertEquals(untilLast(single1), streamed.get(urls.get(0)));
            assertEquals(untilLast(single2), streamed.get(urls.get(1)));
            assertEquals(untilLast(single3), streamed.get(urls.get(2)));
            assertTrue(streamed.get(urls.get(0)).stream().anyMatch(e -> e.startsWith("DELETED")),
                    "configmaps that left the selector were sent as DELETED: " + streamed.get(urls.get(0)));
        }
    }

    @Test
    void aStreamEndedByTheServerResumesEveryWatchAfterItsLastIdWithNothingLostOrRepeated() throws Exception {
        String ns = newNamespace("stream-resume");
        String maps = "/api/v1/namespaces/" + ns + "/configmaps";
        String secrets = "/api/v1/namespaces/" + ns + "/secrets";
        long from = currentRevision();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<?> writing = writer.submit(() -> {
            for (int i = 0; i < 60; i++) {
                put(i % 2 == 0 ? maps : secrets, i % 2 == 0 ? configMap("o-" + i % 9, "x") : secret("o-" + i % 9, i));
                sleepQuietly(40); // writes that span several streams of one second each
            }
            put(maps, configMap("last", "x"));
        });
        String mapsFrom = maps + "?resourceVersion=" + from;
        String secretsFrom = secrets + "?resourceVersion=" + from;
        Map<String, List<String>> streamed = new LinkedHashMap<>(Map.of(mapsFrom, new ArrayList<>(), secretsFrom,
                new ArrayList<>()));
        String lastEventId = null;
        int connections = 0;
        boolean sawLast = false;
        while (!sawLast) {
            assertTrue(++connections < 60, "the writes took more streams than they could");
            String[] headers = lastEventId == null ? new String[0] : new String[] {"Last-Event-ID", lastEventId};
            try (WatchConnection stream = WatchConnection.open(streamOf(List.of(mapsFrom, secretsFrom), "")
                    + "&timeoutSeconds=1", headers)) {
                EventSourceReader events = new EventSourceReader(stream);
                for (Sse sse = events.next(Duration.ofSeconds(5)); sse != null; sse = events.next(Duration
                        .ofSeconds(5))) {
                    if (sse.id() != null) {
                        lastEventId = sse.id();
                    }
                    if (sse.event().equals("BOOKMARK")) {
                        assertFalse(sse.json().has("watch"), "a bookmark of the whole stream: " + sse);
                        continue;
                    }
                    JsonNode data = sse.json();
                    streamed.get(data.path("watch").asText()).add(describe(data));
                    sawLast |= data.path("object").path("metadata").path("name").asText().equals("last");
                }
            }
        }
        writing.get(60, TimeUnit.SECONDS);
        writer.shutdown();
        assertTrue(connections >= 2, "the server ended the stream at least once: " + connections);
        try (WatchConnection single = WatchConnection.open(maps + "?watch=true&resourceVersion=" + from)) {
            assertEquals(untilLast(single), streamed.get(mapsFrom));
        }
        put(secrets, secret("last", 0));
        try (WatchConnection single = WatchConnection.open(secrets + "?watch=true&resourceVersion=" + from)) {
            List<String> expected = untilLast(single);
            assertEquals(expected.subList(0, expected.size() - 1), streamed.get(secretsFrom));
        }
    }

    @Test
    void aWatchThatStartedAfterTheStreamsLastIdResumesAfterItsOwnResourceVersion() {
        String ns = newNamespace("stream-later");
        String maps = "/api/v1/namespaces/" + ns + "/configmaps";
        String secrets = "/api/v1/namespaces/" + ns + "/secrets";
        long from = currentRevision();
        put(maps, configMap("a", "x"));
        put(secrets, secret("listed", 1));
        // as a page does that lists its collections one after the other: the secrets at a later resourceVersion
        List<String> watches = List.of(maps + "?resourceVersion=" + from,
                secrets + "?resourceVersion=" + currentRevision());
        String lastEventId;
        try (WatchConnection stream = WatchConnection.open(streamOf(watches, ""))) {
            Sse first = new EventSourceReader(stream).nextChange();
            assertEquals("a", first.json().path("object").path("metadata").path("name").asText());
            lastEventId = first.id();
        }
        put(secrets, secret("after", 1));
        try (WatchConnection stream = WatchConnection.open(streamOf(watches, ""), "Last-Event-ID", lastEventId)) {
            Sse next = new EventSourceReader(stream).nextChange();
            assertEquals("after", next.json().path("object").path("metadata").path("name").asText(),
                    "the secret listed before the secrets' watch began is not sent again: " + next);
        }
    }

    @Test
    void aStreamThatAsksForInitialEventsGetsEachWatchsStateThenItsBookmarkThenChanges() {
        String ns = newNamespace("stream-initial");
        String maps = "/api/v1/namespaces/" + ns + "/configmaps";
        String secrets = "/api/v1/namespaces/" + ns + "/secrets";
        put(maps, configMap("before", "x"));
        put(secrets, secret("before", 1));
        String initial = "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true";
        try (WatchConnection stream = WatchConnection.open("/streams?watch=" + encode(maps + "?" + initial)
                + "&watch=" + encode(secrets + "?" + initial))) {
            EventSourceReader events = new EventSourceReader(stream);
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Sse sse = events.next();
                seen.add(sse.event() + " " + sse.json().path("watch").asText().replaceAll("\\?.*", "") + " "
                        + (sse.id() != null));
            }
            assertEquals(List.of("ADDED " + maps + " false", "ADDED " + secrets + " false",
                    "BOOKMARK " + maps + " false", "BOOKMARK " + secrets + " true"), seen,
                    "no id until every watch has its state: a client cut off before starts over");
            put(maps, configMap("after", "x"));
            Sse change = events.nextChange();
            assertEquals("ADDED", change.event());
            assertEquals("after", change.json().path("object").path("metadata").path("name").asText());
            assertNotNull(change.id());
        }
    }

    @Test
    void aLastEventIdOlderThanTheHistoryGetsOne410ForTheWholeStream() {
        String ns = newNamespace("stream-expired");
        long old = currentRevision();
        put("/api/v1/namespaces/" + ns + "/configmaps", configMap("a", "x"));
        history.compactTo(store.currentRevision(), 1000);
        try (WatchConnection stream = WatchConnection.open(streamOf(List.of("/api/v1/namespaces/" + ns
                + "/configmaps", "/api/v1/namespaces/" + ns + "/secrets"), ""), "Last-Event-ID", Long.toString(old))) {
            EventSourceReader events = new EventSourceReader(stream);
            Sse error = events.next();
            assertEquals("ERROR", error.event());
            assertEquals("", error.id(), "the browser forgets its Last-Event-ID, so it cannot loop on it");
            assertFalse(error.json().has("watch"), "it is the stream's: every watch relists");
            assertEquals(410, error.json().path("object").path("code").asInt());
            assertEquals("Expired", error.json().path("object").path("reason").asText());
            assertTrue(stream.endsWithin(Duration.ofSeconds(5)));
        }
    }

    @Test
    void aLastEventIdTheStoreNeverReachedGetsOneErrorForTheWholeStreamAndStartsOver() {
        String ns = newNamespace("stream-future");
        try (WatchConnection stream = WatchConnection.open(streamOf(List.of("/api/v1/namespaces/" + ns
                + "/configmaps"), ""), "Last-Event-ID", Long.toString(currentRevision() + 1000))) {
            assertEquals(200, stream.status(), "an EventSource does not come back after an error status");
            Sse error = new EventSourceReader(stream).next();
            assertEquals("ERROR", error.event());
            assertEquals("", error.id(), "the browser forgets its Last-Event-ID: a volatile store restarted");
            assertFalse(error.json().has("watch"), "it is the stream's: " + error);
            assertEquals(504, error.json().path("object").path("code").asInt(), error.toString());
        }
    }

    @Test
    void aClientPausedWhileThousandsOfUpdatesHitAHundredObjectsGetsAtMostOneEventEachThenLiveOnes() throws Exception {
        String ns = newNamespace("stream-coalesce");
        String maps = "/api/v1/namespaces/" + ns + "/configmaps";
        int rounds = 25;
        String padding = "x".repeat(16 * 1024); // 40 MB of frames: more than every buffer between server and client
        for (int i = 0; i < 100; i++) {
            put(maps, padded("cm-" + i, 0, padding));
        }
        long from = currentRevision();
        PausingReader reader = new PausingReader();
        HttpRequest request = HttpRequest.newBuilder(uri("/streams?coalesce=true&watch=" + encode(maps
                + "?resourceVersion=" + from))).header("Accept", "text/event-stream").build();
        HttpResponse<java.util.concurrent.Flow.Publisher<List<java.nio.ByteBuffer>>> response = CLIENT.sendAsync(
                request, HttpResponse.BodyHandlers.ofPublisher()).get(10, TimeUnit.SECONDS);
        assertEquals(200, response.statusCode());
        response.body().subscribe(reader);

        ExecutorService writers = Executors.newFixedThreadPool(4);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            done.add(writers.submit(() -> {
                for (int round = 0; round < rounds; round++) {
                    for (int i = writer; i < 100; i += 4) {
                        patch(maps + "/cm-" + i, "{\"data\":{\"round\":\"" + round + "\",\"pad\":\"" + padding
                                + "\"}}");
                    }
                }
            }));
        }
        for (Future<?> writer : done) {
            writer.get(300, TimeUnit.SECONDS);
        }
        writers.shutdown();
        reader.resume();
        put(maps, padded("live", 0, ""));

        Map<String, String> state = new java.util.TreeMap<>();
        int events = 0;
        Map<String, Integer> coalesced = new java.util.HashMap<>();
        long lastId = 0;
        while (!state.containsKey("live")) {
            Sse sse = reader.next();
            if (sse.event().equals("BOOKMARK")) {
                continue;
            }
            events++;
            JsonNode data = sse.json();
            JsonNode metadata = data.path("object").path("metadata");
            if (data.path("coalesced").asBoolean()) {
                coalesced.merge(metadata.path("name").asText(), 1, Integer::sum);
            }
            assertTrue(Long.parseLong(sse.id()) > lastId, "in revision order");
            lastId = Long.parseLong(sse.id());
            state.put(metadata.path("name").asText(), metadata.path("resourceVersion").asText());
        }
        // "live" may be coalesced too, when it comes while the client still reads what it was behind on
        coalesced.remove("live");
        assertFalse(coalesced.isEmpty(), "the client fell behind");
        assertTrue(coalesced.values().stream().allMatch(count -> count == 1), "one event an object: " + coalesced);
        assertTrue(events < rounds * 100, "the client was not sent every update: " + events);
        Map<String, String> server = new java.util.TreeMap<>();
        JsonNode list = new com.fasterxml.jackson.databind.ObjectMapper().readTree(send(HttpRequest
                .newBuilder(uri(maps)))
                .body());
        list.path("items").forEach(item -> server.put(item.path("metadata").path("name").asText(),
                item.path("metadata").path("resourceVersion").asText()));
        assertEquals(server, state, "the client ends with the server's state");
    }

    @Test
    void badStreamsAreRefusedWithAStatusThatNamesTheProblem() {
        refused("/streams", 400, "a stream needs one watch parameter or more");
        refused("/streams?watch=" + encode("/api/v1/namespaces/default/configmaps/one"), 400,
                "watch \"/api/v1/namespaces/default/configmaps/one\": not the path of a collection");
        refused("/streams?watch=" + encode("https://elsewhere/api/v1/configmaps"), 400, "not the path of a collection");
        refused("/streams?watch=" + encode("/api/v1/widgets"), 404, "watch \"/api/v1/widgets\"");
        refused("/streams?watch=" + encode("/api/v1/configmaps?labelSelector=a%3D%3D%3Db"), 400,
                "watch \"/api/v1/configmaps?labelSelector=a%3D%3D%3Db\"");
        refused("/streams?watch=" + encode("/api/v1/configmaps?timeoutSeconds=5"), 400, "timeoutSeconds belongs to");
        refused("/streams?watch=" + encode("/api/v1/configmaps?labelSelector=%zz"), 400,
                "its percent-encoding does not decode");
        refused("/streams/?watch=" + encode("/api/v1/configmaps"), 404, "");
        refused("/streams?watch=" + encode("/api/v1/configmaps") + "&watch=" + encode("/api/v1/configmaps"), 400,
                "is given twice");
        refused("/streams?watch=" + encode("/api/v1/configmaps") + "&timeoutSeconds=-1", 400, "timeoutSeconds");
        StringBuilder many = new StringBuilder("/streams?watch=" + encode("/api/v1/configmaps"));
        for (int i = 0; i < 100; i++) {
            many.append("&watch=").append(encode("/api/v1/namespaces/n" + i + "/configmaps"));
        }
        refused(many.toString(), 400, "at most 100 watches");
        given().accept("application/json").get("/streams?watch=" + encode("/api/v1/configmaps")).then()
                .statusCode(406).body("reason", org.hamcrest.Matchers.equalTo("NotAcceptable"));
    }

    // --- fixtures

    /** Reads an event stream a chunk at a time, and stops asking for more (so stops reading) until resumed. */
    private static final class PausingReader implements java.util.concurrent.Flow.Subscriber<List<java.nio
            .ByteBuffer>> {
        private final java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent
                .LinkedBlockingQueue<>();
        private final StringBuilder partial = new StringBuilder();
        private volatile java.util.concurrent.Flow.Subscription subscription;
        private volatile boolean paused = true;

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(1); // the head and the retry hint; then nothing until resumed
        }

        @Override
        public void onNext(List<java.nio.ByteBuffer> buffers) {
            for (java.nio.ByteBuffer buffer : buffers) {
                partial.append(StandardCharsets.UTF_8.decode(buffer));
            }
            int end;
            while ((end = partial.indexOf("\n")) >= 0) {
                lines.add(partial.substring(0, end));
                partial.delete(0, end + 1);
            }
            if (!paused) {
                subscription.request(1);
            }
        }

        @Override
        public void onError(Throwable throwable) {
        }

        @Override
        public void onComplete() {
        }

        void resume() {
            paused = false;
            subscription.request(1);
        }

        /** The next event (comments and retry hints skipped). */
        Sse next() throws InterruptedException {
            String id = null;
            String event = null;
            String data = null;
            while (true) {
                String line = lines.poll(30, TimeUnit.SECONDS);
                assertNotNull(line, "no line within 30 s");
                if (line.isEmpty() && data != null) {
                    return new Sse(id, event, data);
                } else if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
        }
    }

    private static String padded(String name, int round, String padding) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":"
                + "{\"round\":\"" + round + "\",\"pad\":\"" + padding + "\"}}";
    }

    private static void patch(String path, String mergePatch) {
        HttpResponse<String> patched = send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(mergePatch)));
        assertEquals(200, patched.statusCode(), patched.body());
    }

    private static void refused(String path, int code, String message) {
        given().urlEncodingEnabled(false).get(path).then().statusCode(code)
                .body("kind", org.hamcrest.Matchers.equalTo("Status"))
                .body("message", org.hamcrest.Matchers.containsString(message));
    }

    /** The events of a single (JSON lines) watch up to and including the one of the object named "last". */
    private static List<String> untilLast(WatchConnection single) {
        List<String> events = new ArrayList<>();
        while (true) {
            JsonNode event = single.next();
            if (event.path("type").asText().equals("BOOKMARK")) {
                continue;
            }
            events.add(describe(event));
            if (event.path("object").path("metadata").path("name").asText().equals("last")) {
                return events;
            }
        }
    }

    private static String describe(JsonNode event) {
        JsonNode metadata = event.path("object").path("metadata");
        return event.path("type").asText() + " " + metadata.path("namespace").asText() + "/"
                + metadata.path("name").asText() + " " + metadata.path("resourceVersion").asText();
    }

    private static String streamOf(List<String> urls, String eachQuery) {
        StringBuilder path = new StringBuilder("/streams?");
        for (String url : urls) {
            String withQuery = eachQuery.isEmpty() ? url : url + (url.contains("?") ? "&" : "?") + eachQuery;
            path.append(path.length() > 9 ? "&" : "").append("watch=").append(encode(withQuery));
        }
        return path.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private String defineGadgets() {
        String crd = "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                + "\"metadata\":"
                + "{\"name\":\"gadgets." + GROUP + "\"},\"spec\":{\"group\":\"" + GROUP + "\",\"scope\":\"Namespaced\","
                + "\"names\":{\"plural\":\"gadgets\",\"kind\":\"Gadget\"},"
                + "\"versions\":[{\"name\":\"v1\",\"served\":true,"
                + "\"storage\":true,\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
                + "\"x-kubernetes-preserve-unknown-fields\":true}}}]}}";
        int code = given().contentType(ContentType.JSON).body(crd)
                .post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").statusCode();
        assertTrue(code == 201 || code == 409, "the CRD is there: " + code);
        return "gadgets";
    }

    private static String configMap(String name, String app) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"labels\":{\"app\":\"" + app + "\"}}}";
    }

    private static String secret(String name, int version) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"" + name + "\"},\"stringData\":"
                + "{\"v\":\"" + version + "\"}}";
    }

    private static String gadget(String name, int size) {
        return "{\"apiVersion\":\"" + GROUP + "/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":{\"size\":" + size + "}}";
    }

    /** Creates {@code body}'s object in {@code collection}, or when it exists merges {@code body} into it. */
    private static void put(String collection, String body) {
        HttpResponse<String> created = send(HttpRequest.newBuilder(uri(collection))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
        if (created.statusCode() == 201) {
            return;
        }
        assertEquals(409, created.statusCode(), created.body());
        String name = body.replaceAll(".*\"name\":\"([^\"]+)\".*", "$1");
        HttpResponse<String> patched = send(HttpRequest.newBuilder(uri(collection + "/" + name))
                .header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(200, patched.statusCode(), patched.body());
    }

    private static URI uri(String path) {
        return URI.create("http://localhost:" + RestAssured.port + path);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
