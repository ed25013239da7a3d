package io.watchgate.http;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The server's deadlines on slow clients, short enough to reach in a test: a second for a request's head, for its
 * body and for an idle kept-alive connection; three for a large response to be taken up (long enough for a reader
 * that reads to take a 13 MB list on a loaded machine). Bookmarks come once a minute, so that a silent watch is
 * silent. One profile for the tests of every deadline, so the server is built and started once for them.
 */
public class ShortDeadlines implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("watchgate.http.request-head-timeout", "1s", "watchgate.http.request-body-timeout", "1s",
                "watchgate.http.keep-alive-timeout", "1s", "watchgate.api.send-timeout", "3s",
                "watchgate.watch.bookmark-interval", "60s");
    }
}
