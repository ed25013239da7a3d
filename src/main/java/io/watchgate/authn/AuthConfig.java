package io.watchgate.authn;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Who may connect (authentication) and what they may do (authorization). */
@ConfigMapping(prefix = "watchgate.auth")
public interface AuthConfig {

    /**
     * Requests without credentials go on as {@code system:anonymous} (group {@code system:unauthenticated}), granted
     * what RBAC grants that user or group; otherwise they are 401. A bad credential is 401 either way.
     */
    @WithDefault("false")
    boolean anonymous();

    /** {@code RBAC}, or {@code AlwaysAllow} (every request that got past authentication is allowed: dev mode). */
    @WithDefault("RBAC")
    AuthorizationMode authorizationMode();

    /** kube-apiserver's static token file: CSV lines {@code token,user,uid,"group1,group2"}; reread when it changes. */
    Optional<Path> tokenFile();

    /**
     * kube-apiserver's structured authentication configuration ({@code --authentication-config}): an
     * {@code AuthenticationConfiguration} whose {@code jwt} entries name the OIDC issuers whose tokens are accepted.
     */
    Optional<Path> authenticationConfig();

    /** How often the token file is checked for changes. */
    @WithDefault("5s")
    Duration tokenFileCheckInterval();

    /**
     * In durable mode without a token file: on first start, generate an admin token (group {@code system:masters})
     * in the data directory, and write {@code admin.kubeconfig} beside it.
     */
    @WithDefault("true")
    boolean bootstrapAdmin();

    enum AuthorizationMode {
        RBAC, AlwaysAllow
    }
}
