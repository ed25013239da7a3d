package io.watchgate.liveview;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * A server that ends every watch after 2 to 3 s (an EventSource comes back 200 ms later) and keeps a history of 40
 * revisions: what a page lives through in hours, within a test.
 */
public class LiveViewProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("watchgate.watch.min-duration", "2s",
                "watchgate.watch.max-duration", "3s",
                "watchgate.watch.sse-retry", "200ms",
                "watchgate.history.max-revisions", "40");
    }
}
