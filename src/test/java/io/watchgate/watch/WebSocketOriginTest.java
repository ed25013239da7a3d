package io.watchgate.watch;

import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.currentRevision;
import static io.watchgate.api.Api.newNamespace;
import static io.watchgate.watch.WebSocketUpgrades.status;
import static io.watchgate.watch.WebSocketUpgrades.upgrade;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

/**
 * With CORS off (the default), a WebSocket watch is served to clients without an Origin (CLIs, libraries) and to pages
 * of the server's own origin; a page of any other site is refused before the upgrade, so it cannot read the stream.
 */
@QuarkusTest
class WebSocketOriginTest {

    private String watch() {
        return configMaps(newNamespace("ws-origin")) + "?watch=true&resourceVersion=" + currentRevision();
    }

    private static String host() {
        return "localhost:" + RestAssured.port;
    }

    @Test
    void aClientWithoutOriginIsServed() throws Exception {
        assertEquals(101, status(upgrade(watch(), host(), null)));
    }

    @Test
    void aPageOfTheServersOwnOriginIsServed() throws Exception {
        assertEquals(101, status(upgrade(watch(), host(), "http://" + host())));
    }

    @Test
    void aPageOfAnotherSiteIsRefusedBeforeTheUpgrade() throws Exception {
        for (String origin : new String[] {"http://evil.example", "null", "https://" + host(),
                "http://localhost:1", "http://" + host() + ".evil.example"}) {
            String head = upgrade(watch(), host(), origin);
            assertEquals(403, status(head), origin + ": " + head);
            assertTrue(head.contains("application/json"), "a Status body: " + head);
        }
    }

    @Test
    void anEventStreamForAnotherSiteCarriesNoCorsHeader() {
        try (WatchConnection stream = WatchConnection.open(watch(), "Accept", "text/event-stream",
                "Origin", "http://evil.example")) {
            // served (a browser sends it without asking), but no page of another site is let read it
            assertEquals(200, stream.status());
            assertNull(stream.header("access-control-allow-origin"));
        }
    }
}
