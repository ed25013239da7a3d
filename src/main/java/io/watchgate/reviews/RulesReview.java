package io.watchgate.reviews;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Authorization;
import io.watchgate.authz.rbac.RbacAuthorizer;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@code kubectl auth can-i --list}: the rules the sender holds in a namespace, as kube-apiserver's chain lists them.
 * Where everything is allowed (AlwaysAllow, or a member of system:masters) that is the one rule allowing everything,
 * as its AlwaysAllow and privileged-group authorizers answer; otherwise RBAC's rules.
 */
@ApplicationScoped
class RulesReview {

    private final Authorization authorization;
    private final RbacAuthorizer rbac;

    RulesReview(Authorization authorization, RbacAuthorizer rbac) {
        this.authorization = authorization;
        this.rbac = rbac;
    }

    void answer(UserInfo user, String namespace, ObjectNode status) {
        if (authorization.alwaysAllows() || user.isMaster()) {
            ObjectNode resources = status.putArray("resourceRules").addObject();
            resources.putArray("verbs").add("*");
            resources.putArray("apiGroups").add("*");
            resources.putArray("resources").add("*");
            ObjectNode paths = status.putArray("nonResourceRules").addObject();
            paths.putArray("verbs").add("*");
            paths.putArray("nonResourceURLs").add("*");
            status.put("incomplete", false);
            return;
        }
        rbac.rulesFor(user, namespace).writeTo(status);
    }
}
