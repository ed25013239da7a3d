package io.watchgate.watch;

import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.currentRevision;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.watch.EventSourceReader.Sse;
import io.watchgate.store.HistoryCompaction;
import io.watchgate.store.Store;
import io.watchgate.watch.fanout.WatchHubs;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Watches for browsers: the same URL with {@code Accept: text/event-stream}, resumable with Last-Event-ID. */
@QuarkusTest
class ServerSentEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EVENT_STREAM = "text/event-stream";

    @Inject
    Store store;

    @Inject
    HistoryCompaction history;

    @Inject
    WatchHubs hubs;

    @Test
    void anEventSourceThatCannotSetAcceptAsksForOneRowTablesInItsQuery() {
        String ns = newNamespace("sse-table");
        long from = currentRevision();
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true&as=Table&includeObject=Object"
                + "&resourceVersion=" + from, "Accept", EVENT_STREAM)) {
            assertEquals(200, stream.status());
            assertTrue(stream.header("content-type").startsWith(EVENT_STREAM), stream.header("content-type"));
            EventSourceReader events = new EventSourceReader(stream);
            String created = createOk(configMaps(ns), configMap("a", "\"data\":{\"k\":\"v\"}"))
                    .path("metadata.resourceVersion");

            Sse added = events.nextChange();
            assertEquals("ADDED", added.event());
            assertEquals(created, added.id());
            JsonNode table = added.json();
            assertEquals("Table", table.path("kind").asText());
            assertEquals("meta.k8s.io/v1", table.path("apiVersion").asText());
            assertEquals("Data", table.path("columnDefinitions").path(1).path("name").asText());
            assertEquals(1, table.path("rows").size());
            assertEquals("a", table.path("rows").path(0).path("cells").path(0).asText());
            assertEquals(1, table.path("rows").path(0).path("cells").path(1).asInt());
            assertEquals("v", table.path("rows").path(0).path("object").path("data").path("k").asText(),
                    "includeObject=Object: the whole object in its row");
        }
    }

    @Test
    void anAsParameterOtherThanTableIsRefused() {
        String ns = newNamespace("sse-as");
        io.restassured.RestAssured.given().accept(EVENT_STREAM).get(configMaps(ns) + "?watch=true&as=Widget")
                .then().statusCode(400).body("reason", org.hamcrest.Matchers.equalTo("BadRequest"))
                .body("message", org.hamcrest.Matchers.containsString("as: Unsupported value: \"Widget\""));
    }

    @Test
    void anEventSourceGetsTheStateThenChangesEachWithItsResourceVersionAsId() {
        String ns = newNamespace("sse-stream");
        createOk(configMaps(ns), configMap("a", ""));
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true", "Accept", EVENT_STREAM,
                "Origin", "https://dashboard.example")) {
            assertEquals(200, stream.status());
            assertNull(stream.header("access-control-allow-origin"), "CORS is off unless configured");
            assertTrue(stream.header("content-type").startsWith(EVENT_STREAM), stream.header("content-type"));
            assertEquals("no", stream.header("x-accel-buffering"));
            assertEquals("no-cache, private", stream.header("cache-control"));
            EventSourceReader events = new EventSourceReader(stream);

            Sse initial = events.next();
            assertEquals("ADDED", initial.event());
            assertEquals("a", initial.name());
            assertNull(initial.id(), "an initial event is no place to resume from");
            assertNotNull(events.retry, "a retry hint comes first");

            Sse end = events.next();
            assertEquals("BOOKMARK", end.event());
            assertEquals("true", end.json().path("metadata").path("annotations").path("k8s.io/initial-events-end")
                    .asText());
            assertEquals(end.json().path("metadata").path("resourceVersion").asText(), end.id(),
                    "the end of the initial events is a resume point");

            long created = Long.parseLong(createOk(configMaps(ns), configMap("b", "")).path("metadata.resourceVersion"));
            Sse added = events.nextChange();
            assertEquals("ADDED", added.event());
            assertEquals(Long.toString(created), added.id());

            // heartbeats (1 s in tests) keep proxies from closing an idle stream
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (events.comments.isEmpty() && System.nanoTime() < deadline) {
                events.next(Duration.ofMillis(500));
            }
            assertFalse(events.comments.isEmpty(), "a comment heartbeat within 5 s");
        }
    }

    @Test
    void reconnectingWithLastEventIdResumesExactlyAfterIt() {
        String ns = newNamespace("sse-resume");
        long from = currentRevision();
        List<String> names = new ArrayList<>();
        String lastEventId;
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion=" + from,
                "Accept", EVENT_STREAM)) {
            EventSourceReader events = new EventSourceReader(stream);
            createOk(configMaps(ns), configMap("a", ""));
            createOk(configMaps(ns), configMap("b", ""));
            events.nextChange();
            Sse b = events.nextChange();
            names.add("a");
            names.add(b.name());
            lastEventId = b.id();
        }
        // the browser is away while these happen
        createOk(configMaps(ns), configMap("c", ""));
        createOk(configMaps(ns), configMap("d", ""));
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion=" + from,
                "Accept", EVENT_STREAM, "Last-Event-ID", lastEventId)) {
            EventSourceReader events = new EventSourceReader(stream);
            names.add(events.nextChange().name());
            names.add(events.nextChange().name());
            createOk(configMaps(ns), configMap("e", ""));
            names.add(events.nextChange().name());
            Sse more = events.next(Duration.ofMillis(300));
            assertTrue(more == null || more.event().equals("BOOKMARK"), "nothing is sent twice: " + more);
        }
        assertEquals(List.of("a", "b", "c", "d", "e"), names, "Last-Event-ID wins over the query: no gap, no repeat");
    }

    @Test
    void aCompactedLastEventIdGetsAnErrorEventWith410ThenTheStreamCloses() {
        String ns = newNamespace("sse-expired");
        long old = currentRevision();
        createOk(configMaps(ns), configMap("a", ""));
        history.compactTo(store.currentRevision(), 1000);
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true", "Accept", EVENT_STREAM,
                "Last-Event-ID", Long.toString(old))) {
            EventSourceReader events = new EventSourceReader(stream);
            Sse error = events.next();
            assertEquals("ERROR", error.event());
            assertEquals(410, error.json().path("code").asInt());
            assertEquals("Expired", error.json().path("reason").asText());
            assertEquals("", error.id(), "the browser forgets its Last-Event-ID, so it cannot loop on it");
            assertTrue(stream.endsWithin(Duration.ofSeconds(5)));
        }
    }

    @Test
    void anEventSourceIsNeverAnsweredWithAnErrorStatusItWouldNotRetry() throws Exception {
        String ns = newNamespace("sse-refused");
        createOk(configMaps(ns), configMap("a", ""));
        long future = currentRevision() + 1000;
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true", "Accept", EVENT_STREAM,
                "Last-Event-ID", Long.toString(future))) {
            assertEquals(200, stream.status());
            Sse error = new EventSourceReader(stream).next();
            assertEquals("ERROR", error.event());
            assertEquals(504, error.json().path("code").asInt(), "a resourceVersion the store never reached");
            assertEquals("", error.id());
        }
        hubs.drain().toCompletionStage().toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS);
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true", "Accept", EVENT_STREAM)) {
            assertEquals(200, stream.status(), "while draining");
            EventSourceReader reader = new EventSourceReader(stream);
            Sse wait = reader.next(Duration.ofSeconds(5));
            assertEquals("RETRY", wait.event(), "not an ERROR: the watch goes on later, where it was");
            assertEquals(503, wait.json().path("code").asInt(), "the Status, for a page to say why it waits");
            assertNull(wait.id(), "the Last-Event-ID stays");
            assertEquals("1000", reader.retry, "come back in a second");
            assertNull(reader.next(Duration.ofSeconds(5)));
            assertTrue(stream.endsWithin(Duration.ofSeconds(1)));
        } finally {
            hubs.resume();
        }
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true", "Accept", EVENT_STREAM)) {
            assertEquals("ADDED", new EventSourceReader(stream).next().event(), "served again after the drain");
        }
    }
}
