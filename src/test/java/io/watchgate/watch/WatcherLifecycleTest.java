package io.watchgate.watch;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.currentRevision;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.watchgate.watch.fanout.WatchHubs;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** What a watch costs the server over its life, and how it ends when its client goes or stops reading. */
@QuarkusTest
class WatcherLifecycleTest {

    @Inject
    WatchHubs hubs;

    @Test
    void aClosedConnectionFreesItsWatcherAtOnce() {
        String ns = newNamespace("watch-close");
        int before = hubs.active();
        WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion="
                + currentRevision());
        awaitTrue(() -> hubs.active() == before + 1, "the watch is counted");
        watch.close();
        awaitTrue(() -> hubs.active() == before, "closing the connection frees the watcher");
    }

    @Test
    void aClientThatStopsReadingIsEndedWhileAReadingWatcherOfTheSameTypeGetsEverything() throws Exception {
        String ns = newNamespace("watch-slow");
        long from = currentRevision();
        long endedBefore = hubs.endedSlow();
        String big = "x".repeat(100_000);
        try (Socket stalled = openWithoutReading(configMaps(ns) + "?watch=true&resourceVersion=" + from);
                WatchConnection reading = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion="
                        + from)) {
            int written = 0;
            // write until the server gives up on the stalled client (its buffers take some megabytes first)
            while (hubs.endedSlow() == endedBefore && written < 2_000) {
                String name = "cm-" + written;
                createOk(configMaps(ns), configMap(name, "\"data\":{\"payload\":\"" + big + "\"}"));
                written++;
            }
            assertTrue(hubs.endedSlow() > endedBefore, "the client that stopped reading was ended after "
                    + written + " writes");
            for (int i = 0; i < written; i++) {
                JsonNode event = reading.next();
                assertEquals("ADDED", WatchConnection.type(event));
                assertEquals("cm-" + i, WatchConnection.name(event), "the reading watcher got every event, in order");
            }
            createOk(configMaps(ns), configMap("after", ""));
            assertEquals("after", WatchConnection.name(reading.next()), "and keeps receiving");
        }
    }

    /** Sends a watch request and reads only the response head, then never reads again. */
    private static Socket openWithoutReading(String pathAndQuery) throws Exception {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("localhost", RestAssured.port));
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("the server closed the watch before answering: " + head);
            }
            head.append((char) b);
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 200"), head.toString());
        return socket;
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.onSpinWait();
        }
    }
}
