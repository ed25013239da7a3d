package io.watchgate.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import org.junit.jupiter.api.Test;

/** The bytes of watch events, bookmarks and heartbeats in each form a watch travels in. */
class WireFormatTest {

    private final ResourceType configMaps = new ResourceTypes().find("", "v1", "configmaps").orElseThrow();

    @Test
    void aJsonLineIsOneWatchEventObjectPerLine() {
        assertEquals("{\"type\":\"ADDED\",\"object\":{\"a\":1}}\n",
                WireFormat.JSON_LINES.frame("ADDED", "{\"a\":1}".getBytes(), 7).toString());
    }

    @Test
    void anEventStreamFrameCarriesTheResourceVersionAsItsIdUnlessItMustNotMoveTheResumePoint() {
        assertEquals("id: 7\nevent: MODIFIED\ndata: {}\n\n",
                WireFormat.SERVER_SENT_EVENTS.frame("MODIFIED", "{}".getBytes(), 7).toString());
        assertEquals("event: ADDED\ndata: {}\n\n",
                WireFormat.SERVER_SENT_EVENTS.frame("ADDED", "{}".getBytes(), WireFormat.NO_ID).toString());
        assertEquals("id\nevent: ERROR\ndata: {}\n\n",
                WireFormat.SERVER_SENT_EVENTS.frame("ERROR", "{}".getBytes(), WireFormat.RESET_ID).toString());
    }

    @Test
    void aBookmarkIsAnObjectOfTheWatchedKindWithOnlyItsResourceVersion() {
        assertEquals("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\","
                + "\"metadata\":{\"resourceVersion\":\"42\"}}}\n",
                WireFormat.JSON_LINES.bookmark(configMaps, 42, false, ObjectRendering.AS_STORED).toString());
    }

    @Test
    void theLastInitialEventIsFollowedByABookmarkAnnotatedAsTheirEnd() {
        assertEquals("id: 42\nevent: BOOKMARK\ndata: {\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\","
                + "\"metadata\":{\"resourceVersion\":\"42\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}\n\n",
                WireFormat.SERVER_SENT_EVENTS.bookmark(configMaps, 42, true, ObjectRendering.AS_STORED).toString());
    }

    @Test
    void onlyEventStreamsHaveAHeartbeatAndItIsAComment() {
        assertEquals(": heartbeat\n\n", WireFormat.SERVER_SENT_EVENTS.heartbeat().toString());
        assertThrows(UnsupportedOperationException.class, WireFormat.JSON_LINES::heartbeat);
    }
}
