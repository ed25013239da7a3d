package io.watchgate.authn;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.jboss.logging.Logger;

/** Says at start, loudly, when the server lets in more than its credentials and RBAC would. */
@ApplicationScoped
class OpenAccessWarning {

    private static final Logger LOG = Logger.getLogger(OpenAccessWarning.class);

    void warn(@Observes StartupEvent event, AuthConfig config) {
        message(config).ifPresent(LOG::warn);
    }

    static Optional<String> message(AuthConfig config) {
        boolean alwaysAllow = config.authorizationMode() == AuthConfig.AuthorizationMode.AlwaysAllow;
        if (config.anonymous() && alwaysAllow) {
            return Optional.of("authentication is open: requests without credentials are allowed everything "
                    + "(watchgate.auth.anonymous=true, authorization-mode=AlwaysAllow); dev mode and tests only");
        }
        if (alwaysAllow) {
            return Optional.of("authorization is open: every authenticated request is allowed everything "
                    + "(watchgate.auth.authorization-mode=AlwaysAllow); dev mode and tests only");
        }
        if (config.anonymous()) {
            return Optional.of("authentication is open: requests without credentials go on as system:anonymous, "
                    + "allowed what RBAC grants system:anonymous and system:unauthenticated "
                    + "(watchgate.auth.anonymous=true)");
        }
        return Optional.empty();
    }
}
