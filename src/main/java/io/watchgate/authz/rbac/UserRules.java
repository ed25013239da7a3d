package io.watchgate.authz.rbac;

import io.watchgate.authn.UserInfo;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One user's rules under one policy snapshot: the cluster-wide ones, resolved when the entry is made, and those of
 * each namespace the user has asked about, resolved on first use. A user may name any namespace, so at most
 * {@link #MAX_NAMESPACES} are kept, dropped together when full (resolving one again is what kube does per request).
 */
final class UserRules {

    static final int MAX_NAMESPACES = 64;

    private final PolicySnapshot policy;
    private final UserInfo user;
    private final RuleSet clusterWide;
    private final Map<String, RuleSet> namespaces = new ConcurrentHashMap<>();

    UserRules(PolicySnapshot policy, UserInfo user) {
        this.policy = policy;
        this.user = user;
        this.clusterWide = RuleResolver.clusterWide(policy, user);
    }

    RuleSet clusterWide() {
        return clusterWide;
    }

    /** The rules the RoleBindings of {@code namespace} grant (none for the empty namespace: cluster scope). */
    RuleSet inNamespace(String namespace) {
        if (namespace.isEmpty()) {
            return RuleSet.NONE;
        }
        RuleSet rules = namespaces.get(namespace);
        if (rules == null) {
            rules = RuleResolver.inNamespace(policy, user, namespace);
            if (namespaces.size() >= MAX_NAMESPACES) {
                namespaces.clear();
            }
            namespaces.putIfAbsent(namespace, rules);
        }
        return rules;
    }

    int namespacesHeld() {
        return namespaces.size();
    }
}
