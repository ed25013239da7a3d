package io.watchgate.authz.rbac;

/**
 * Fired (synchronously, under the commit lock: observers only hand it on) when a Role, ClusterRole or binding was
 * changed or deleted, so that the policy in force may grant less than before; creates never do, RBAC having no deny.
 *
 * @param revision the revision of the change, in force from now on
 */
public record PermissionsReduced(long revision) {
}
