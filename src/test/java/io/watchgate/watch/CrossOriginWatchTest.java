package io.watchgate.watch;

import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.currentRevision;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.watchgate.http.BrowserFacing;
import org.junit.jupiter.api.Test;

/** A page served from another origin may watch once CORS is configured for it (it is off by default). */
@QuarkusTest
@TestProfile(BrowserFacing.class)
class CrossOriginWatchTest {

    static final String DASHBOARD = BrowserFacing.DASHBOARD;

    @Test
    void anEventStreamFromAnAllowedOriginCarriesTheCorsHeader() {
        String ns = newNamespace("sse-cors");
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion="
                + currentRevision(),
                "Accept", "text/event-stream", "Origin", DASHBOARD)) {
            assertEquals(200, stream.status());
            assertEquals(DASHBOARD, stream.header("access-control-allow-origin"));
            assertEquals("true", stream.header("access-control-allow-credentials"), "a session cookie may go along");
        }
    }

    @Test
    void aWebSocketWatchFromAnAllowedOriginIsServedAndFromOthersRefused() throws Exception {
        String watch = configMaps(newNamespace("ws-cors")) + "?watch=true&resourceVersion=" + currentRevision();
        String host = "localhost:" + RestAssured.port;
        assertEquals(101, WebSocketUpgrades.status(WebSocketUpgrades.upgrade(watch, host, DASHBOARD)));
        assertEquals(101, WebSocketUpgrades.status(WebSocketUpgrades.upgrade(watch, host, null)));
        assertEquals(403, WebSocketUpgrades.status(WebSocketUpgrades.upgrade(watch, host, "http://evil.example")));
    }

    @Test
    void anOriginNotConfiguredIsRefused() {
        String ns = newNamespace("sse-cors-other");
        try (WatchConnection stream = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion="
                + currentRevision(),
                "Accept", "text/event-stream", "Origin", "https://elsewhere.example")) {
            assertEquals(403, stream.status());
        }
    }
}
