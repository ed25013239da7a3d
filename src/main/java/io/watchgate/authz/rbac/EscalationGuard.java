package io.watchgate.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.authz.Authorizer;
import io.watchgate.status.ApiException;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Kube-apiserver's escalation prevention for RBAC writes (pkg/registry/rbac: escalation_check.go and the policybased
 * storages): a user may write a role only with rules they hold themselves, and bind a role only if they hold its
 * rules, unless they are a member of system:masters or are allowed the verb {@code escalate} on the role (for roles)
 * or {@code bind} on the role referred to (for bindings). Those two verbs are asked of the {@link Authorizer} passed
 * in, the one requests are authorized with.
 */
@ApplicationScoped
public class EscalationGuard {

    /** What setting an aggregationRule takes: everything, as cluster-admin has it. */
    static final List<PolicyRule> FULL_AUTHORITY = List.of(
            new PolicyRule(List.of("*"), List.of("*"), List.of("*"), List.of(), List.of()),
            new PolicyRule(List.of("*"), List.of(), List.of(), List.of(), List.of("*")));

    private final RbacAuthorizer rbac;

    EscalationGuard(RbacAuthorizer rbac) {
        this.rbac = rbac;
    }

    /**
     * The whole check for a write of any type, as the API's write path calls it: nothing for types other than the
     * four RBAC ones and for bodies that are not objects (validation answers those), else
     * {@link #requireMayWriteRole} or {@link #requireMayWriteBinding}.
     *
     * @param authorizer  the composed authorizer requests are authorized with (system:masters included)
     * @param requestName the name in the request's path: empty for a create by POST, as kube's RequestInfo has it
     * @param previous    the stored object an update or patch changes; null for a create
     */
    public void admit(Authorizer authorizer, UserInfo user, ResourceType type, String namespace, String requestName,
            JsonNode object, JsonNode previous) {
        if (!RbacTypes.isRbac(type) || !(object instanceof ObjectNode written)) {
            return;
        }
        ObjectNode before = previous instanceof ObjectNode stored ? stored : null;
        Attributes request = new Attributes(user, before == null ? "create" : "update", true, type.group(),
                type.version(), type.plural(), "", namespace, requestName, "");
        if (type.plural().equals(RbacTypes.ROLES.plural()) || type.plural().equals(RbacTypes.CLUSTER_ROLES.plural())) {
            requireMayWriteRole(authorizer, request, written, before);
        } else {
            requireMayWriteBinding(authorizer, request, written, before);
        }
    }

    /**
     * Refuses with 403 a create ({@code previous} null) or update of a Role or ClusterRole, as {@code request}
     * states it, that grants what its user does not hold.
     *
     * @param request the write's attributes: its user, and the resource, namespace and name of its path
     */
    public void requireMayWriteRole(Authorizer authorizer, Attributes request, ObjectNode role, ObjectNode previous) {
        UserInfo user = request.user();
        if (EscalationRules.escalationAllowed(user) || EscalationRules.roleEscalationAuthorized(authorizer, request)) {
            return;
        }
        if (previous != null && EscalationRules.onlyMutatesGcFields(role, previous)) {
            return;
        }
        String name = role.path("metadata").path("name").asText("");
        String resource = qualified(request);
        Gaps gaps = notHeld(user, request.namespace(), PolicyRule.listFrom(role.path("rules")));
        if (!gaps.covered()) {
            throw ApiException.forbidden(RbacTypes.GROUP, resource, name, gaps.message());
        }
        boolean aggregates = EscalationRules.hasAggregationRule(role)
                || previous != null && EscalationRules.hasAggregationRule(previous);
        if (request.resource().equals(RbacTypes.CLUSTER_ROLES.plural()) && aggregates
                && !notHeld(user, request.namespace(), FULL_AUTHORITY).covered()) {
            throw ApiException.forbidden(RbacTypes.GROUP, resource, name,
                    "must have cluster-admin privileges to use the aggregationRule");
        }
    }

    /**
     * Refuses a create ({@code previous} null) or update of a RoleBinding or ClusterRoleBinding that binds a role
     * whose rules its user does not hold: 403, or 404 when the role does not exist (kube's registry error).
     */
    public void requireMayWriteBinding(Authorizer authorizer, Attributes request, ObjectNode binding,
            ObjectNode previous) {
        UserInfo user = request.user();
        if (EscalationRules.escalationAllowed(user)) {
            return;
        }
        if (previous != null && EscalationRules.onlyMutatesGcFields(binding, previous)) {
            return;
        }
        String namespace = request.namespace();
        RoleRef roleRef = RoleRef.from(binding.path("roleRef"));
        if (EscalationRules.bindingAuthorized(authorizer, user, roleRef, namespace)) {
            return;
        }
        List<PolicyRule> rules = rbac.roleReferenceRules(roleRef, namespace);
        if (rules == null) {
            throw switch (roleRef.kind()) {
                case "Role" -> ApiException.notFound(RbacTypes.GROUP, RbacTypes.ROLES.resource(), roleRef.name());
                case "ClusterRole" -> ApiException.notFound(RbacTypes.GROUP, RbacTypes.CLUSTER_ROLES.resource(),
                        roleRef.name());
                default -> ApiException.badRequest(RuleResolver.missing(roleRef));
            };
        }
        Gaps gaps = notHeld(user, namespace, rules);
        if (!gaps.covered()) {
            throw ApiException.forbidden(RbacTypes.GROUP, qualified(request),
                    binding.path("metadata").path("name").asText(""), gaps.message());
        }
    }

    /**
     * Kube's {@code ConfirmNoEscalation}: the rules of {@code requested} that {@code user} does not hold in
     * {@code namespace} (cluster-wide ones included), and kube's message naming them.
     */
    public Gaps notHeld(UserInfo user, String namespace, List<PolicyRule> requested) {
        RbacAuthorizer.OwnedRules owned = rbac.ownedRules(user, namespace);
        List<PolicyRule> missing = Coverage.uncovered(owned.rules(), requested);
        if (missing != null && missing.isEmpty()) {
            return Gaps.NONE;
        }
        return new Gaps(missing == null ? List.of() : missing,
                EscalationMessage.of(user, missing == null ? null : Coverage.compact(missing), owned.errors()));
    }

    private static String qualified(Attributes request) {
        return request.resource() + "." + RbacTypes.GROUP;
    }

    /**
     * What {@link #notHeld} found.
     *
     * @param missing the atoms not held (one group, resource, verb and name, or one URL and verb each); empty both
     *                when everything is held and when there were too many to check (then the message says so)
     * @param message kube's message, empty when everything is held
     */
    public record Gaps(List<PolicyRule> missing, String message) {
        static final Gaps NONE = new Gaps(List.of(), "");

        public Gaps {
            missing = List.copyOf(missing);
        }

        public boolean covered() {
            return message.isEmpty();
        }
    }
}
