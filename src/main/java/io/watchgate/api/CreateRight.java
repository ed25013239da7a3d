package io.watchgate.api;

import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.authz.Authorization;
import io.watchgate.authz.Decision;
import io.watchgate.authz.Forbidden;
import io.watchgate.request.Target;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The right to create, asked of the authorizer again when a write of another verb creates (a PUT of a type that
 * creates on update, an apply), as kube-apiserver asks it: the verb's own right does not cover a create.
 */
@ApplicationScoped
public class CreateRight {

    private final Authorization authorization;

    CreateRight(Authorization authorization) {
        this.authorization = authorization;
    }

    /** 403 unless {@code user} may create {@code name} where {@code target} says. */
    void require(Target target, UserInfo user, String name) {
        ResourceType type = target.type();
        Attributes create = Attributes.resource(user, "create", type.group(), type.version(), type.plural(), "",
                target.namespace() == null ? "" : target.namespace(), name);
        Decision decision = authorization.authorize(create);
        if (!decision.allowed()) {
            throw Forbidden.of(create, decision.reason());
        }
    }
}
