package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.watchgate.authn.AuthConfig.AuthorizationMode;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A server that lets in more than credentials and RBAC would says so at start; a closed one says nothing. */
class OpenAccessWarningTest {

    private static Optional<String> warning(boolean anonymous, AuthorizationMode mode) {
        return OpenAccessWarning.message(new AuthSettings(anonymous, mode, Optional.empty(), Duration.ofSeconds(5),
                true));
    }

    @Test
    void devModeIsCalledOpen() {
        assertEquals(Optional.of("authentication is open: requests without credentials are allowed everything "
                + "(watchgate.auth.anonymous=true, authorization-mode=AlwaysAllow); dev mode and tests only"),
                warning(true, AuthorizationMode.AlwaysAllow));
    }

    @Test
    void alwaysAllowOrAnonymousAloneAreWarnedAboutToo() {
        assertTrue(warning(false, AuthorizationMode.AlwaysAllow).orElseThrow().contains("authorization-mode=AlwaysAllow"));
        assertTrue(warning(true, AuthorizationMode.RBAC).orElseThrow().contains("system:anonymous"));
    }

    @Test
    void theDefaultsAreClosedAndQuiet() {
        assertEquals(Optional.empty(), warning(false, AuthorizationMode.RBAC));
    }
}
