package io.watchgate.watch;

import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.currentRevision;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A watch asked for over a WebSocket upgrade (as fabric8 asks first): one text message per watch event. */
@QuarkusTest
class WebSocketWatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aWebSocketWatchSendsEachEventAsOneTextMessage() throws Exception {
        String ns = newNamespace("watch-ws");
        createOk(configMaps(ns), configMap("before", ""));
        long from = currentRevision();
        BlockingQueue<String> messages = new LinkedBlockingQueue<>();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://localhost:" + RestAssured.port + configMaps(ns)
                        + "?watch=true&resourceVersion=" + from), new TextMessages(messages))
                .get(10, TimeUnit.SECONDS);
        try {
            createOk(configMaps(ns), configMap("a", ""));
            createOk(configMaps(ns), configMap("b", ""));
            JsonNode first = JSON.readTree(messages.poll(10, TimeUnit.SECONDS));
            JsonNode second = JSON.readTree(messages.poll(10, TimeUnit.SECONDS));
            assertEquals("ADDED a", WatchConnection.type(first) + " " + WatchConnection.name(first));
            assertEquals("ADDED b", WatchConnection.type(second) + " " + WatchConnection.name(second));
            assertEquals(from + 1, WatchConnection.revision(first));
            assertNull(messages.poll(300, TimeUnit.MILLISECONDS), "events after the resourceVersion only");
        } finally {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        }
    }

    @Test
    void aWebSocketWatchWithoutResourceVersionStartsWithTheState() throws Exception {
        String ns = newNamespace("watch-ws-initial");
        createOk(configMaps(ns), configMap("a", ""));
        BlockingQueue<String> messages = new LinkedBlockingQueue<>();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://localhost:" + RestAssured.port + configMaps(ns) + "?watch=1"),
                        new TextMessages(messages))
                .get(10, TimeUnit.SECONDS);
        try {
            JsonNode added = JSON.readTree(messages.poll(10, TimeUnit.SECONDS));
            assertEquals("ADDED a", WatchConnection.type(added) + " " + WatchConnection.name(added));
        } finally {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        }
    }
}
