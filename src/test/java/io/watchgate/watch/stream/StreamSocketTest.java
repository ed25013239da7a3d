package io.watchgate.watch.stream;

import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.watchgate.watch.TextMessages;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A stream over a WebSocket at {@code /streams}: its client adds and stops watches while connected, and each event
 * comes as one message tagged with the id the client gave its watch.
 */
@QuarkusTest
class StreamSocketTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    private WebSocket socket;

    @BeforeEach
    void connect() throws Exception {
        socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://localhost:" + RestAssured.port + "/streams"), new TextMessages(messages))
                .get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() {
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
    }

    @Test
    void watchesAreAddedAndStoppedWhileConnectedEachEventTaggedWithItsId() throws Exception {
        String ns = newNamespace("stream-ws");
        createOk(configMaps(ns), configMap("before", ""));
        String secrets = "/api/v1/namespaces/" + ns + "/secrets";

        send("{\"op\":\"watch\",\"id\":\"maps\",\"url\":\"" + configMaps(ns) + "?sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true\"}");
        assertEquals("maps ADDED before", describe(next()));
        JsonNode end = next();
        assertEquals("maps BOOKMARK", end.path("watch").asText() + " " + end.path("type").asText());
        assertEquals("true", end.path("object").path("metadata").path("annotations")
                .path("k8s.io/initial-events-end").asText());

        createOk(configMaps(ns), configMap("during", ""));
        assertEquals("maps ADDED during", describe(next()));

        send("{\"op\":\"watch\",\"id\":\"secrets\",\"url\":\"" + secrets + "\"}");
        assertEquals("secrets BOOKMARK ", describe(next()), "no resourceVersion: its state first, none here");
        createOk(secrets, "{\"metadata\":{\"name\":\"s1\"}}");
        assertEquals("secrets ADDED s1", describe(next()));

        send("{\"op\":\"stop\",\"id\":\"maps\"}");
        JsonNode stopped = next();
        assertEquals("maps STOPPED", stopped.path("watch").asText() + " " + stopped.path("type").asText(),
                "a stop is answered: " + stopped);
        assertEquals("Status", stopped.path("object").path("kind").asText());
        assertEquals("Success", stopped.path("object").path("status").asText());
        assertEquals(200, stopped.path("object").path("code").asInt());
        createOk(configMaps(ns), configMap("after-stop", ""));
        createOk(secrets, "{\"metadata\":{\"name\":\"s2\"}}");
        assertEquals("secrets ADDED s2", describe(next()), "the stopped watch is sent nothing after its answer");
        createOk(secrets, "{\"metadata\":{\"name\":\"s3\"}}");
        assertEquals("secrets ADDED s3", describe(next()), "and nothing of the stopped watch came between");

        send("{\"op\":\"watch\",\"id\":\"maps\",\"url\":\"" + configMaps(ns) + "\"}");
        Set<String> state = new TreeSet<>();
        for (JsonNode message = next(); !message.path("type").asText().equals("BOOKMARK"); message = next()) {
            assertEquals("maps ADDED", message.path("watch").asText() + " " + message.path("type").asText());
            state.add(message.path("object").path("metadata").path("name").asText());
        }
        assertEquals(Set.of("after-stop", "before", "during"), state,
                "a stopped watch's id may be used again, for a new watch with its own state");
    }

    @Test
    void whatAMessageAsksThatCannotBeDoneIsAnErrorAndTheStreamGoesOn() throws Exception {
        String ns = newNamespace("stream-ws-bad");
        send("not json");
        JsonNode notJson = next();
        assertEquals("ERROR", notJson.path("type").asText());
        assertFalse(notJson.has("watch"), "no id to tag it with: " + notJson);
        assertEquals(400, notJson.path("object").path("code").asInt());

        send("{\"op\":\"watch\",\"id\":\"w1\",\"url\":\"/api/v1/widgets\"}");
        assertError(next(), "w1", 404, "watch \"/api/v1/widgets\"");
        send("{\"op\":\"stop\",\"id\":\"nothing\"}");
        assertError(next(), null, 404, "no watch \"nothing\"");
        send("{\"op\":\"follow\",\"id\":\"w2\"}");
        assertError(next(), null, 400, "op: Unsupported value: \"follow\"");
        send("{\"op\":\"watch\",\"id\":\"w4\",\"url\":\"/api/v1/configmaps?labelSelector=%zz\"}");
        assertError(next(), "w4", 400, "its percent-encoding does not decode");
        send("{\"op\":\"watch\",\"id\":\"has space\",\"url\":\"" + configMaps(ns) + "\"}");
        JsonNode badId = next();
        assertEquals(400, badId.path("object").path("code").asInt());
        assertTrue(badId.path("object").path("message").asText().startsWith("id: Invalid value"), badId.toString());
        send("{\"op\":\"watch\",\"id\":\"w3\",\"url\":\"" + configMaps(ns) + "\"}");
        assertEquals("w3 BOOKMARK ", describe(next()));
        send("{\"op\":\"watch\",\"id\":\"w3\",\"url\":\"" + configMaps(ns) + "\"}");
        assertError(next(), null, 400, "a watch \"w3\" already"); // the stream's: w3 goes on

        createOk(configMaps(ns), configMap("still-served", ""));
        assertEquals("w3 ADDED still-served", describe(next()));
    }

    @Test
    void watchMessagesPastTheirRateAreRefusedWithA429TaggedWithTheirIdAndTheStreamGoesOn() throws Exception {
        String ns = newNamespace("stream-ws-rate");
        int sent = 300; // a burst of 100 (max-watches), then 10 a second: refusals unless sending takes 20 s
        long start = System.nanoTime();
        int started = 0;
        int throttled = 0;
        int full = 0;
        for (int i = 0; i < sent; i++) {
            // one at a time, each answer read before the next: a client that does not read its answers is cut off
            send("{\"op\":\"watch\",\"id\":\"w" + i + "\",\"url\":\"" + configMaps(ns) + "\"}");
            JsonNode message = next();
            assertEquals("w" + i, message.path("watch").asText(), message.toString());
            if (message.path("type").asText().equals("BOOKMARK")) {
                started++; // the end of its initial events: none here
                continue;
            }
            int code = message.path("object").path("code").asInt();
            if (code == 429) {
                throttled++;
                assertTrue(message.path("object").path("message").asText().contains("then 10 a second"), message
                        .toString());
            } else {
                assertEquals(400, code, "a token that came back meets the stream's 100 watches: " + message);
                full++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(100, started, "the burst: as many watches as a stream carries");
        assertEquals(sent, started + throttled + full, "every message answered");
        assertTrue(full <= seconds * 10 + 1, full + " tokens came back in " + seconds + " s");
        assertTrue(throttled >= 1, "sending " + sent + " messages took " + seconds + " s");

        createOk(configMaps(ns), configMap("still-served", ""));
        assertEquals("w0 ADDED still-served", describe(next()));
    }

    /** An ERROR of the watch {@code id}, or with a null id of the stream. */
    private static void assertError(JsonNode message, String id, int code, String text) {
        assertEquals(id, message.has("watch") ? message.path("watch").asText() : null, message.toString());
        assertEquals("ERROR", message.path("type").asText());
        assertEquals(code, message.path("object").path("code").asInt(), message.toString());
        assertTrue(message.path("object").path("message").asText().contains(text), message.toString());
    }

    private void send(String message) {
        socket.sendText(message, true).join();
    }

    /** The next message, bookmarks of the whole stream (which name no watch) aside. */
    private JsonNode next() throws Exception {
        while (true) {
            String message = messages.poll(10, TimeUnit.SECONDS);
            assertNotNull(message, "no message within 10 s");
            JsonNode json = JSON.readTree(message);
            if (json.has("watch") || !json.path("type").asText().equals("BOOKMARK")) {
                return json;
            }
        }
    }

    private static String describe(JsonNode message) {
        return message.path("watch").asText() + " " + message.path("type").asText() + " "
                + message.path("object").path("metadata").path("name").asText();
    }
}
