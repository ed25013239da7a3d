package io.watchgate.types;

import java.util.List;
import java.util.Map;

/**
 * The built-in types of rbac.authorization.k8s.io/v1: Roles and ClusterRoles (sets of permissions) and the bindings
 * that grant them to users, groups and service accounts. They are stored and watched like any object; authorization
 * reads them.
 */
public final class RbacTypes {

    public static final String GROUP = "rbac.authorization.k8s.io";

    public static final ResourceType ROLES = type("Role", "roles", "role", true);
    public static final ResourceType CLUSTER_ROLES = type("ClusterRole", "clusterroles", "clusterrole", false);
    public static final ResourceType ROLE_BINDINGS = type("RoleBinding", "rolebindings", "rolebinding", true);
    public static final ResourceType CLUSTER_ROLE_BINDINGS = type("ClusterRoleBinding", "clusterrolebindings",
            "clusterrolebinding", false);

    public static final List<ResourceType> ALL = List.of(ROLES, CLUSTER_ROLES, ROLE_BINDINGS, CLUSTER_ROLE_BINDINGS);

    private RbacTypes() {
    }

    public static boolean isRbac(ResourceType type) {
        return type.group().equals(GROUP);
    }

    private static ResourceType type(String kind, String plural, String singular, boolean namespaced) {
        // kube-apiserver names RBAC objects by path segment rules ("system:aggregate-to-admin"), and its RBAC
        // strategies let a PUT create a role or a binding
        return new ResourceType(GROUP, "v1", kind, plural, singular, namespaced, List.of(),
                NameRule.PATH_SEGMENT, Map.of(), true, Map.of("metadata.ownerReferences", "uid"),
                ResourceType.ALL_VERBS, new UpdateStrategy(true, true));
    }
}
