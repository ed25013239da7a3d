package io.watchgate.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.authn.UserInfo;

/** Whom a binding grants its role to: a User, a Group or a ServiceAccount (rbac/v1 {@code Subject}). */
record Subject(String kind, String name, String namespace) {

    static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    static Subject from(JsonNode subject) {
        return new Subject(subject.path("kind").asText(""), subject.path("name").asText(""),
                subject.path("namespace").asText(""));
    }

    /**
     * Kube's {@code appliesToUser}. A service account without a namespace is the binding's namespace's (none for a
     * ClusterRoleBinding, where it matches nobody); a service account is the user
     * {@code system:serviceaccount:<namespace>:<name>}.
     */
    boolean appliesTo(UserInfo user, String bindingNamespace) {
        return switch (kind) {
            case "User" -> user.name().equals(name);
            case "Group" -> user.groups().contains(name);
            case "ServiceAccount" -> {
                String saNamespace = namespace.isEmpty() ? bindingNamespace : namespace;
                yield !saNamespace.isEmpty() && isServiceAccount(user.name(), saNamespace);
            }
            default -> false;
        };
    }

    private boolean isServiceAccount(String userName, String saNamespace) {
        int prefix = SERVICE_ACCOUNT_PREFIX.length();
        return userName.length() == prefix + saNamespace.length() + 1 + name.length()
                && userName.startsWith(SERVICE_ACCOUNT_PREFIX) && userName.startsWith(saNamespace, prefix)
                && userName.charAt(prefix + saNamespace.length()) == ':'
                && userName.endsWith(name);
    }
}
