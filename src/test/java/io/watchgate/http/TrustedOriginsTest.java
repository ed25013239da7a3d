package io.watchgate.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.net.HostAndPort;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which pages' origins the server trusts: its own, and those CORS lists ({@code *} never with credentials). */
class TrustedOriginsTest {

    private static final HostAndPort LOCALHOST_8080 = HostAndPort.create("localhost", 8080);
    private static final TrustedOrigins CORS_OFF = TrustedOrigins.of(false, List.of("https://dashboard.example"));

    @Test
    void theServersOwnOriginIsAllowed() {
        assertTrue(CORS_OFF.allows("http://localhost:8080", "http", LOCALHOST_8080));
        assertTrue(CORS_OFF.allows("http://LOCALHOST:8080", "http", LOCALHOST_8080));
        assertTrue(CORS_OFF.allows("https://gateway.example", "https", HostAndPort.create("gateway.example", -1)));
        assertTrue(CORS_OFF.allows("http://gateway.example:80", "http", HostAndPort.create("gateway.example", -1)));
        assertTrue(CORS_OFF.allows("http://[::1]:8080", "http", HostAndPort.create("[::1]", 8080)));
    }

    @Test
    void anotherSchemeHostOrPortIsAnotherOrigin() {
        assertFalse(CORS_OFF.allows("https://localhost:8080", "http", LOCALHOST_8080));
        assertFalse(CORS_OFF.allows("http://localhost:3000", "http", LOCALHOST_8080));
        assertFalse(CORS_OFF.allows("http://localhost", "http", LOCALHOST_8080));
        assertFalse(CORS_OFF.allows("http://evil.example:8080", "http", LOCALHOST_8080));
        assertFalse(CORS_OFF.allows("http://localhost.evil.example:8080", "http", LOCALHOST_8080));
        assertFalse(CORS_OFF.allows("null", "http", LOCALHOST_8080));
        assertFalse(CORS_OFF.allows("http://localhost:8080", "http", null));
    }

    @Test
    void configuredOriginsCountOnlyWithCorsOn() {
        assertFalse(CORS_OFF.allows("https://dashboard.example", "http", LOCALHOST_8080));
        TrustedOrigins on = TrustedOrigins.of(true,
                List.of("https://dashboard.example", "/https://.*\\.ops\\.example/"));
        assertTrue(on.allows("https://dashboard.example", "http", LOCALHOST_8080));
        assertTrue(on.allows("https://team.ops.example", "http", LOCALHOST_8080));
        assertFalse(on.allows("https://team.ops.example.evil", "http", LOCALHOST_8080));
        assertFalse(on.allows("http://evil.example", "http", LOCALHOST_8080));
        assertTrue(on.allows("http://localhost:8080", "http", LOCALHOST_8080), "the own origin stays allowed");
        assertTrue(TrustedOrigins.of(true, List.of("*")).allows("http://evil.example", "http", LOCALHOST_8080));
    }

    @Test
    void aWildcardNeverTrustsAnotherSiteWithCredentials() {
        TrustedOrigins any = TrustedOrigins.of(true, List.of("*", "https://dashboard.example"));
        assertFalse(any.listedOrOwn("http://evil.example", "http", LOCALHOST_8080));
        assertTrue(any.listedOrOwn("https://dashboard.example", "http", LOCALHOST_8080));
        assertTrue(any.listedOrOwn("http://localhost:8080", "http", LOCALHOST_8080));
    }
}
