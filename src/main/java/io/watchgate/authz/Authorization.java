package io.watchgate.authz;

import io.watchgate.authn.AuthConfig;
import io.watchgate.authz.rbac.RbacAuthorizer;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The server's authorizer, composed as kube-apiserver composes its chain: with {@code AlwaysAllow} everything is
 * allowed; otherwise members of {@code system:masters} are (its privileged-group authorizer, first), then RBAC
 * decides. The access reviews and the escalation checks ask this one, so they answer what requests meet.
 */
@ApplicationScoped
public class Authorization implements Authorizer {

    private final boolean alwaysAllow;
    private final RbacAuthorizer rbac;

    Authorization(AuthConfig config, RbacAuthorizer rbac) {
        this.alwaysAllow = config.authorizationMode() == AuthConfig.AuthorizationMode.AlwaysAllow;
        this.rbac = rbac;
    }

    @Override
    public Decision authorize(Attributes attributes) {
        if (alwaysAllow || attributes.user().isMaster()) {
            return Decision.ALLOW;
        }
        return rbac.authorize(attributes);
    }

    /** Whether every request is allowed: nothing to check, nothing to end. */
    public boolean alwaysAllows() {
        return alwaysAllow;
    }
}
