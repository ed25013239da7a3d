package io.watchgate.authz.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import io.watchgate.types.RbacTypes;
import java.util.List;

/**
 * The RBAC policy at one revision: every Role's and ClusterRole's rules (parsed once, as stored: aggregated
 * ClusterRoles' rules are filled in by their controller, not here) and every binding. Immutable; a committed event
 * yields a new snapshot that shares everything it does not change (see {@link ChunkedMap}).
 *
 * @param roles        by namespace, then name
 * @param roleBindings by namespace, then name
 */
record PolicySnapshot(ChunkedMap<List<PolicyRule>> clusterRoles, ChunkedMap<Binding> clusterRoleBindings,
        ChunkedMap<ChunkedMap<List<PolicyRule>>> roles, ChunkedMap<ChunkedMap<Binding>> roleBindings,
        long revision) {

    static final PolicySnapshot EMPTY = new PolicySnapshot(ChunkedMap.empty(), ChunkedMap.empty(),
            ChunkedMap.empty(), ChunkedMap.empty(), 0);

    static final String ROLES = RbacTypes.ROLES.resource();
    static final String CLUSTER_ROLES = RbacTypes.CLUSTER_ROLES.resource();
    static final String ROLE_BINDINGS = RbacTypes.ROLE_BINDINGS.resource();
    static final String CLUSTER_ROLE_BINDINGS = RbacTypes.CLUSTER_ROLE_BINDINGS.resource();

    /** Whether objects filed under this store resource are part of the policy. */
    static boolean isPolicy(String resource) {
        return resource.equals(ROLES) || resource.equals(CLUSTER_ROLES) || resource.equals(ROLE_BINDINGS)
                || resource.equals(CLUSTER_ROLE_BINDINGS);
    }

    /** The snapshot after {@code event}; this one for an event of another type. O(one object + one chunk). */
    PolicySnapshot applied(ChangeEvent event) {
        ObjectKey key = event.key();
        if (!isPolicy(key.resource())) {
            return this;
        }
        ObjectNode object = event.type() == EventType.DELETED ? null : event.object().tree();
        return with(key, object, event.revision());
    }

    /** The snapshot with the object at {@code key} set to {@code object}, or removed when it is null. */
    PolicySnapshot with(ObjectKey key, ObjectNode object, long atRevision) {
        String resource = key.resource();
        String name = key.name();
        String namespace = key.namespace();
        if (resource.equals(CLUSTER_ROLES)) {
            return new PolicySnapshot(object == null ? clusterRoles.without(name)
                    : clusterRoles.with(name, PolicyRule.listFrom(object.path("rules"))),
                    clusterRoleBindings, roles, roleBindings, atRevision);
        }
        if (resource.equals(CLUSTER_ROLE_BINDINGS)) {
            return new PolicySnapshot(clusterRoles, object == null ? clusterRoleBindings.without(name)
                    : clusterRoleBindings.with(name, Binding.from(object)), roles, roleBindings, atRevision);
        }
        if (resource.equals(ROLES)) {
            List<PolicyRule> rules = object == null ? null : PolicyRule.listFrom(object.path("rules"));
            return new PolicySnapshot(clusterRoles, clusterRoleBindings, nested(roles, namespace, name, rules),
                    roleBindings, atRevision);
        }
        if (resource.equals(ROLE_BINDINGS)) {
            Binding binding = object == null ? null : withNamespace(Binding.from(object), namespace);
            return new PolicySnapshot(clusterRoles, clusterRoleBindings, roles,
                    nested(roleBindings, namespace, name, binding), atRevision);
        }
        return this;
    }

    /** The key, not the body, says where a binding lives: a subject's namespace defaults to it. */
    private static Binding withNamespace(Binding binding, String namespace) {
        return binding.namespace().equals(namespace) ? binding
                : new Binding(binding.name(), namespace, binding.roleRef(), binding.subjects());
    }

    /** Copies the outer chunk and the namespace's chunk only; a namespace left empty is dropped. */
    private static <V> ChunkedMap<ChunkedMap<V>> nested(ChunkedMap<ChunkedMap<V>> byNamespace, String namespace,
            String name, V value) {
        ChunkedMap<V> inNamespace = byNamespace.get(namespace);
        if (inNamespace == null) {
            inNamespace = ChunkedMap.empty();
        }
        ChunkedMap<V> changed = value == null ? inNamespace.without(name) : inNamespace.with(name, value);
        if (changed == inNamespace) {
            return byNamespace;
        }
        return changed.isEmpty() ? byNamespace.without(namespace) : byNamespace.with(namespace, changed);
    }

    List<PolicyRule> role(String namespace, String name) {
        ChunkedMap<List<PolicyRule>> inNamespace = roles.get(namespace);
        return inNamespace == null ? null : inNamespace.get(name);
    }

    List<PolicyRule> clusterRole(String name) {
        return clusterRoles.get(name);
    }

    ChunkedMap<Binding> roleBindingsIn(String namespace) {
        ChunkedMap<Binding> inNamespace = roleBindings.get(namespace);
        return inNamespace == null ? ChunkedMap.empty() : inNamespace;
    }
}
