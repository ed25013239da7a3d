package io.watchgate.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.authz.Authorizer;
import io.watchgate.types.RbacTypes;

/**
 * The ways past the escalation check kube-apiserver allows (pkg/registry/rbac escalation_check.go, helpers.go):
 * membership of system:masters, the verbs {@code escalate} and {@code bind}, and a write that only changes what the
 * garbage collector changes.
 */
public final class EscalationRules {

    private EscalationRules() {
    }

    /** Kube's {@code EscalationAllowed}: system:masters is the API server's privileged loopback group. */
    public static boolean escalationAllowed(UserInfo user) {
        return user.isMaster();
    }

    /**
     * Kube's {@code RoleEscalationAuthorized}: whether the request's user may {@code escalate} the role the request
     * writes (its path's namespace and name: none for a create).
     */
    public static boolean roleEscalationAuthorized(Authorizer authorizer, Attributes request) {
        if (authorizer == null || !request.resourceRequest() || !request.group().equals(RbacTypes.GROUP)) {
            return false;
        }
        if (!request.resource().equals(RbacTypes.ROLES.plural())
                && !request.resource().equals(RbacTypes.CLUSTER_ROLES.plural())) {
            return false;
        }
        return authorizer.authorize(Attributes.resource(request.user(), "escalate", request.group(), "*",
                request.resource(), "", request.namespace(), request.name())).allowed();
    }

    /**
     * Kube's {@code BindingAuthorized}: whether {@code user} may {@code bind} the role {@code roleRef} names, in the
     * binding's namespace (empty for a ClusterRoleBinding).
     */
    static boolean bindingAuthorized(Authorizer authorizer, UserInfo user, RoleRef roleRef, String bindingNamespace) {
        String resource = switch (roleRef.kind()) {
            case "ClusterRole" -> RbacTypes.CLUSTER_ROLES.plural();
            case "Role" -> RbacTypes.ROLES.plural();
            default -> null;
        };
        if (authorizer == null || resource == null) {
            return false;
        }
        return authorizer.authorize(Attributes.resource(user, "bind", roleRef.apiGroup(), "*", resource, "",
                bindingNamespace, roleRef.name())).allowed();
    }

    /** Kube's {@code hasAggregationRule}: a ClusterRole that gathers others' rules by label. */
    static boolean hasAggregationRule(JsonNode clusterRole) {
        JsonNode selectors = clusterRole.path("aggregationRule").path("clusterRoleSelectors");
        return selectors.isArray() && !selectors.isEmpty();
    }

    /**
     * Kube's {@code IsOnlyMutatingGCFields}: the new object equals the old one but for owner references, finalizers,
     * selfLink and managed fields, so the garbage collector may clean up what it could not otherwise write.
     */
    static boolean onlyMutatesGcFields(ObjectNode object, ObjectNode previous) {
        ObjectNode copied = object.deepCopy();
        JsonNode oldMetadata = previous.path("metadata");
        if (!(copied.get("metadata") instanceof ObjectNode metadata)) {
            return false;
        }
        for (String field : new String[] {"ownerReferences", "finalizers", "selfLink", "managedFields"}) {
            JsonNode old = oldMetadata.get(field);
            if (old == null) {
                metadata.remove(field);
            } else {
                metadata.set(field, old.deepCopy());
            }
        }
        return copied.equals(previous);
    }
}
