package io.watchgate.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.watch.TextMessages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged application stopped with SIGTERM, as Kubernetes stops a pod: a watcher that asked for bookmarks
 * gets a last BOOKMARK at the newest revision and a clean end of its stream, so it re-watches from there
 * elsewhere; the server exits within its grace period, held by no request it has ended (WebSockets included); and
 * every acknowledged write is there after a restart.
 */
class GracefulShutdownIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void sigtermEndsWatchesWithABookmarkAndLosesNoAcknowledgedWrite() throws Exception {
        Path data = dir.resolve("data");
        Path log = dir.resolve("app.log");
        Map<String, String> acknowledged = new LinkedHashMap<>();
        List<JsonNode> events = new ArrayList<>();
        CompletableFuture<Void> streamEnded;
        try (PackagedApp app = PackagedApp.start(data, log, "quarkus.shutdown.delay=1s")) {
            HttpRequest watch = HttpRequest.newBuilder(app.uri(
                    "/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true")).GET().build();
            HttpResponse<Stream<String>> stream = HttpClient.newHttpClient()
                    .send(watch, HttpResponse.BodyHandlers.ofLines());
            assertEquals(200, stream.statusCode());
            // completes normally only if the stream ends cleanly (a cut one throws while reading)
            streamEnded = CompletableFuture.runAsync(() -> stream.body().forEach(line -> {
                try {
                    events.add(JSON.readTree(line));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
            // WebSockets too: one watch its client closed before, one the server ends; neither holds the shutdown
            BlockingQueue<String> messages = new LinkedBlockingQueue<>();
            URI sockets = URI.create(app.uri("/api/v1/namespaces/default/configmaps?watch=true").toString()
                    .replace("http:", "ws:"));
            WebSocket closedBefore = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(sockets, new TextMessages(messages)).get(10, TimeUnit.SECONDS);
            closedBefore.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
            HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(sockets, new TextMessages(messages))
                    .get(10, TimeUnit.SECONDS);
            for (int i = 0; i < 50; i++) {
                HttpResponse<String> created = app.post("/api/v1/namespaces/default/configmaps",
                        "{\"metadata\":{\"name\":\"g" + i + "\"},\"data\":{\"i\":\"" + i + "\"}}");
                assertEquals(201, created.statusCode(), created.body());
                acknowledged.put("g" + i, JSON.readTree(created.body()).at("/metadata/resourceVersion").asText());
            }
            long started = System.nanoTime();
            app.terminate(30);
            assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(15), "exited within the grace period");
            streamEnded.get(10, TimeUnit.SECONDS);
        }
        assertFalse(Files.readString(log).contains("Timed out waiting for graceful shutdown"),
                "no request held the shutdown for its whole timeout: " + log);
        String newest = acknowledged.get("g49");
        JsonNode last = events.get(events.size() - 1);
        assertEquals("BOOKMARK", last.path("type").asText(), "the last event: " + last);
        assertEquals(newest, last.at("/object/metadata/resourceVersion").asText());
        assertEquals(50, events.stream().filter(e -> e.path("type").asText().equals("ADDED")).count());

        try (PackagedApp app = PackagedApp.start(data, log)) {
            for (Map.Entry<String, String> write : acknowledged.entrySet()) {
                HttpResponse<String> read = app.get("/api/v1/namespaces/default/configmaps/" + write.getKey());
                assertEquals(200, read.statusCode(), write.getKey());
                assertEquals(write.getValue(), JSON.readTree(read.body()).at("/metadata/resourceVersion").asText());
            }
        }
    }
}
