package io.watchgate.http;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * The server as it is set up to face browsers of other sites: served under its own names only (what stops a
 * DNS-rebound page) and open by CORS to one dashboard's origin. One profile for the tests of both, so the server is
 * built and started once for them.
 */
public class BrowserFacing implements QuarkusTestProfile {

    /** The one other origin whose pages may call the server. */
    public static final String DASHBOARD = "https://dashboard.example";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("watchgate.http.allowed-hosts", "localhost,.gateway.example",
                "quarkus.http.cors.enabled", "true", "quarkus.http.cors.origins", DASHBOARD);
    }
}
