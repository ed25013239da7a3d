package io.watchgate.authn;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** watchgate.auth settings for tests that build the beans by hand. */
record AuthSettings(boolean anonymous, AuthorizationMode authorizationMode, Optional<Path> tokenFile,
        Duration tokenFileCheckInterval, boolean bootstrapAdmin) implements AuthConfig {

    @Override
    public Optional<Path> authenticationConfig() {
        return Optional.empty();
    }

    /** The packaged application's defaults: closed, RBAC, no token file, bootstrap admin on. */
    static AuthSettings defaults() {
        return new AuthSettings(false, AuthorizationMode.RBAC, Optional.empty(), Duration.ofSeconds(5), true);
    }

    AuthSettings withTokenFile(Path file) {
        return new AuthSettings(anonymous, authorizationMode, Optional.of(file), tokenFileCheckInterval,
                bootstrapAdmin);
    }
}
