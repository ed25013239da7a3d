package io.watchgate.authz.rbac;

import io.watchgate.authn.UserInfo;
import java.util.List;

/**
 * Kube's {@code DefaultRuleResolver} over a snapshot: which rules the ClusterRoleBindings, and the RoleBindings of a
 * namespace, grant a user, with kube's error for each binding whose role cannot be found.
 */
final class RuleResolver {

    private RuleResolver() {
    }

    /** The rules every ClusterRoleBinding that names the user grants: in force in every namespace. */
    static RuleSet clusterWide(PolicySnapshot policy, UserInfo user) {
        RuleSet.Builder rules = new RuleSet.Builder();
        policy.clusterRoleBindings().forEachValue(binding -> {
            if (binding.appliesTo(user)) {
                resolve(policy, binding.roleRef(), "", rules);
            }
        });
        return rules.build();
    }

    /** The rules the RoleBindings of {@code namespace} that name the user grant there. */
    static RuleSet inNamespace(PolicySnapshot policy, UserInfo user, String namespace) {
        RuleSet.Builder rules = new RuleSet.Builder();
        policy.roleBindingsIn(namespace).forEachValue(binding -> {
            if (binding.appliesTo(user)) {
                resolve(policy, binding.roleRef(), namespace, rules);
            }
        });
        return rules.build();
    }

    private static void resolve(PolicySnapshot policy, RoleRef roleRef, String bindingNamespace,
            RuleSet.Builder into) {
        List<PolicyRule> rules = roleReferenceRules(policy, roleRef, bindingNamespace);
        if (rules == null) {
            into.error(missing(roleRef));
        } else {
            into.grant(rules);
        }
    }

    /** Kube's {@code GetRoleReferenceRules}: the referenced role's rules, or null when there is none. */
    static List<PolicyRule> roleReferenceRules(PolicySnapshot policy, RoleRef roleRef, String bindingNamespace) {
        return switch (roleRef.kind()) {
            case "Role" -> policy.role(bindingNamespace, roleRef.name());
            case "ClusterRole" -> policy.clusterRole(roleRef.name());
            default -> null;
        };
    }

    /**
     * Why {@link #roleReferenceRules} found nothing, as the authorizer's listers say it (singular resource:
     * {@code clusterrole.rbac.authorization.k8s.io "x" not found}).
     */
    static String missing(RoleRef roleRef) {
        return switch (roleRef.kind()) {
            case "Role" -> "role.rbac.authorization.k8s.io " + GoQuoted.of(roleRef.name()) + " not found";
            case "ClusterRole" -> "clusterrole.rbac.authorization.k8s.io " + GoQuoted.of(roleRef.name())
                    + " not found";
            default -> "unsupported role reference kind: " + GoQuoted.of(roleRef.kind());
        };
    }
}
