package io.watchgate.authz.rbac;

import io.watchgate.authz.Attributes;
import io.watchgate.authz.Authorizer;
import io.watchgate.authz.Decision;
import jakarta.enterprise.context.ApplicationScoped;

/** Placeholder until the engine lands. */
@ApplicationScoped
public class RbacAuthorizer implements Authorizer {

    @Override
    public Decision authorize(Attributes attributes) {
        return Decision.DENY;
    }
}
