package io.watchgate.authz.rbac;

import static io.watchgate.authz.rbac.Rbac.person;
import static io.watchgate.authz.rbac.Rbac.rule;
import static io.watchgate.authz.rbac.Rbac.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.authz.Authorizer;
import io.watchgate.authz.Decision;
import io.watchgate.status.ApiException;
import io.watchgate.types.NameRule;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A user grants only what they hold, unless allowed to escalate or bind, or a member of system:masters. */
class EscalationGuardTest {

    private static final String HEADER = "user \"bob\" (groups=[\"g1\" \"system:authenticated\"]) is attempting to "
            + "grant RBAC permissions not currently held:\n";

    private static final ResourceType CONFIG_MAPS = new ResourceType("", "v1", "ConfigMap", "configmaps",
            "configmap", true, List.of(), NameRule.DNS1123_SUBDOMAIN, Map.of(), true, Map.of(),
            ResourceType.ALL_VERBS);

    private final Rbac rbac = new Rbac();
    private final UserInfo bob = person("bob", "g1");
    /** What the integrator composes: system:masters first, then RBAC. */
    private final Authorizer composed = request -> request.user().isMaster() ? Decision.ALLOW
            : rbac.authorizer.authorize(request);

    EscalationGuardTest() {
        rbac.clusterRole("pod-reader", rule("{'verbs':['get','list'],'apiGroups':[''],'resources':['pods']}"));
        rbac.roleBinding("team", "bob-pods", "ClusterRole", "pod-reader", user("bob"));
    }

    private static Attributes create(UserInfo user, String resource, String namespace) {
        return Attributes.resource(user, "create", "rbac.authorization.k8s.io", "v1", resource, "", namespace, "");
    }

    private void writeRole(UserInfo user, String namespace, ObjectNode... rules) {
        rbac.guard.requireMayWriteRole(composed, create(user, "roles", namespace),
                Rbac.roleObject("Role", namespace, "r", rules), null);
    }

    private ApiException refusedRole(UserInfo user, String namespace, ObjectNode... rules) {
        return assertThrows(ApiException.class, () -> writeRole(user, namespace, rules));
    }

    @Test
    void aRoleWithRulesTheUserHoldsMayBeWritten() {
        writeRole(bob, "team", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"));
        writeRole(bob, "team");
    }

    @Test
    void aRoleGrantingMoreIsForbiddenWithKubesMessageListingWhatIsNotHeld() {
        ApiException refused = refusedRole(bob, "team",
                rule("{'verbs':['get','delete'],'apiGroups':[''],'resources':['pods']}"),
                rule("{'verbs':['get','patch'],'apiGroups':[''],'resources':['secrets']}"));
        assertEquals(403, refused.code());
        assertEquals("Forbidden", refused.reason());
        assertEquals("roles.rbac.authorization.k8s.io \"r\" is forbidden: " + HEADER
                + "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"delete\"]}\n"
                + "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\" \"patch\"]}", refused.getMessage());
    }

    @Test
    void aRefusalOfHugeNamesAndManyRulesIsBoundedNotBuiltWhole() {
        String huge = "n".repeat(1 << 20);
        StringBuilder verbs = new StringBuilder();
        StringBuilder resources = new StringBuilder();
        for (int i = 0; i < 90; i++) { // 90 verbs of 100 resources: 9,000 single permissions, within the bound
            verbs.append(i == 0 ? "" : ",").append("'verb-").append(i).append('\'');
        }
        for (int i = 0; i < 100; i++) {
            resources.append(i == 0 ? "" : ",").append("'res-").append(i).append('\'');
        }
        ApiException refused = refusedRole(bob, "team", rule("{'verbs':[" + verbs + "],'apiGroups':[''],"
                + "'resources':[" + resources + "],'resourceNames':['" + huge + "']}"));
        assertEquals(403, refused.code());
        assertTrue(refused.getMessage().length() < 16 * 1024, "a bounded message: " + refused.getMessage().length());
        assertTrue(refused.getMessage().contains("\"" + "n".repeat(GoQuoted.MAX_QUOTED_CHARS) + "\"..."),
                "a long name is quoted clipped");
    }

    @Test
    void whatIsHeldInOneNamespaceIsNotHeldInAnother() {
        ApiException refused = refusedRole(bob, "other",
                rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"));
        assertTrue(refused.getMessage().endsWith(HEADER + "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"get\"]}"));
    }

    @Test
    void namedAndSubresourceAndUrlRulesAreComparedAtomByAtom() {
        rbac.clusterRole("mixed",
                rule("{'verbs':['get'],'apiGroups':[''],'resources':['configmaps'],'resourceNames':['a','b']}"),
                rule("{'verbs':['update'],'apiGroups':['*'],'resources':['*/status']}"),
                rule("{'verbs':['get'],'nonResourceURLs':['/logs/*']}"));
        rbac.clusterRoleBinding("bob-mixed", "mixed", user("bob"));
        writeRole(bob, "team", rule("{'verbs':['get'],'apiGroups':[''],'resources':['configmaps'],"
                + "'resourceNames':['b']}"), rule("{'verbs':['update'],'apiGroups':['apps'],"
                + "'resources':['deployments/status']}"));
        EscalationGuard.Gaps gaps = rbac.guard.notHeld(bob, "team", List.of(
                PolicyRule.from(rule("{'verbs':['get'],'apiGroups':[''],'resources':['configmaps'],"
                        + "'resourceNames':['a','c']}")),
                PolicyRule.from(rule("{'verbs':['get'],'apiGroups':[''],'resources':['configmaps']}")),
                PolicyRule.from(rule("{'verbs':['get'],'nonResourceURLs':['/logs/app','/metrics']}"))));
        assertEquals(HEADER + "{APIGroups:[\"\"], Resources:[\"configmaps\"], ResourceNames:[\"c\"], Verbs:[\"get\"]}\n"
                + "{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"get\"]}\n"
                + "{NonResourceURLs:[\"/metrics\"], Verbs:[\"get\"]}", gaps.message());
        assertEquals(3, gaps.missing().size());
    }

    @Test
    void aClusterRoleIsComparedWithWhatIsHeldClusterWide() {
        ApiException refused = assertThrows(ApiException.class, () -> rbac.guard.requireMayWriteRole(composed,
                create(bob, "clusterroles", ""), Rbac.roleObject("ClusterRole", "", "cr",
                        rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}")), null));
        assertTrue(refused.getMessage().startsWith("clusterroles.rbac.authorization.k8s.io \"cr\" is forbidden: "));
    }

    @Test
    void theEscalateVerbOnRolesLetsAUserWriteAnyRole() {
        rbac.role("team", "escalator", rule("{'verbs':['escalate'],'apiGroups':['rbac.authorization.k8s.io'],"
                + "'resources':['roles']}"));
        rbac.roleBinding("team", "bob-escalates", "Role", "escalator", user("bob"));
        writeRole(bob, "team", rule("{'verbs':['*'],'apiGroups':['*'],'resources':['*']}"));
        refusedRole(bob, "other", rule("{'verbs':['*'],'apiGroups':['*'],'resources':['*']}"));
    }

    @Test
    void membersOfSystemMastersMayGrantAnything() {
        writeRole(person("root", UserInfo.MASTERS), "team", rule("{'verbs':['*'],'apiGroups':['*'],'resources':['*']}"));
    }

    @Test
    void theUsersResolutionErrorsAreAppended() {
        rbac.clusterRoleBinding("bob-x", "x", user("bob"));
        ApiException refused = refusedRole(bob, "team", rule("{'verbs':['get'],'apiGroups':[''],'resources':['secrets']}"));
        assertTrue(refused.getMessage().endsWith("{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}"
                + "; resolution errors: [clusterrole.rbac.authorization.k8s.io \"x\" not found]"),
                refused.getMessage());
    }

    @Test
    void anAggregationRuleTakesClusterAdminPrivileges() {
        // create and update, not '*': '*' includes escalate, which skips every check
        rbac.clusterRole("role-writer", rule("{'verbs':['create','update'],'apiGroups':['rbac.authorization.k8s.io'],"
                + "'resources':['clusterroles']}"));
        rbac.clusterRoleBinding("bob-writes", "role-writer", user("bob"));
        ObjectNode aggregated = Rbac.roleObject("ClusterRole", "", "agg");
        aggregated.set("aggregationRule", Rbac.json("{'clusterRoleSelectors':[{'matchLabels':{'a':'b'}}]}"));
        ApiException refused = assertThrows(ApiException.class, () -> rbac.guard.requireMayWriteRole(composed,
                create(bob, "clusterroles", ""), aggregated, null));
        assertEquals("clusterroles.rbac.authorization.k8s.io \"agg\" is forbidden: must have cluster-admin privileges "
                + "to use the aggregationRule", refused.getMessage());
        rbac.guard.requireMayWriteRole(composed, create(person("root", UserInfo.MASTERS), "clusterroles", ""),
                aggregated, null);
    }

    @Test
    void anUpdateThatOnlyChangesWhatTheGarbageCollectorChangesIsNotChecked() {
        ObjectNode previous = Rbac.roleObject("Role", "team", "r",
                rule("{'verbs':['*'],'apiGroups':['*'],'resources':['*']}"));
        ObjectNode updated = previous.deepCopy();
        ((ObjectNode) updated.get("metadata")).putArray("finalizers").add("x");
        Attributes update = Attributes.resource(bob, "update", "rbac.authorization.k8s.io", "v1", "roles", "",
                "team", "r");
        rbac.guard.requireMayWriteRole(composed, update, updated, previous);
        ((ObjectNode) updated.get("metadata")).put("labels", "changed");
        assertThrows(ApiException.class, () -> rbac.guard.requireMayWriteRole(composed, update, updated, previous));
    }

    @Test
    void aRuleThatBreaksDownPastTheBoundIsRefusedWithoutBreakingItDown() {
        ObjectNode huge = rule("{'apiGroups':['x'],'resources':['r']}");
        for (String field : List.of("verbs", "resourceNames")) {
            ArrayNode values = huge.putArray(field);
            for (int i = 0; i < 1000; i++) {
                values.add("v" + i);
            }
        }
        ApiException refused = refusedRole(bob, "team", huge);
        assertTrue(refused.getMessage().contains("more than " + Coverage.MAX_ATOMS + " single permissions"));
        rbac.clusterRoleBinding("bob-all", "all", user("bob"));
        rbac.clusterRole("all", rule("{'verbs':['*'],'apiGroups':['*'],'resources':['*']}"));
        writeRole(bob, "team", huge);
    }

    @Test
    void aBindingMayGrantOnlyARoleWhoseRulesTheUserHolds() {
        rbac.clusterRole("admin", rule("{'verbs':['*'],'apiGroups':[''],'resources':['pods','secrets']}"));
        ObjectNode toReader = Rbac.bindingObject("RoleBinding", "team", "b", "ClusterRole", "pod-reader", user("eve"));
        ObjectNode toAdmin = Rbac.bindingObject("RoleBinding", "team", "b", "ClusterRole", "admin", user("eve"));
        Attributes request = create(bob, "rolebindings", "team");
        rbac.guard.requireMayWriteBinding(composed, request, toReader, null);
        ApiException refused = assertThrows(ApiException.class,
                () -> rbac.guard.requireMayWriteBinding(composed, request, toAdmin, null));
        assertEquals("rolebindings.rbac.authorization.k8s.io \"b\" is forbidden: " + HEADER
                + "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"*\"]}\n"
                + "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"*\"]}", refused.getMessage());
    }

    @Test
    void theBindVerbOnTheRoleLetsAUserBindIt() {
        rbac.clusterRole("admin", rule("{'verbs':['*'],'apiGroups':['*'],'resources':['*']}"));
        rbac.role("team", "binder", rule("{'verbs':['bind'],'apiGroups':['rbac.authorization.k8s.io'],"
                + "'resources':['clusterroles'],'resourceNames':['admin']}"));
        rbac.roleBinding("team", "bob-binds", "Role", "binder", user("bob"));
        ObjectNode toAdmin = Rbac.bindingObject("RoleBinding", "team", "b", "ClusterRole", "admin", user("eve"));
        rbac.guard.requireMayWriteBinding(composed, create(bob, "rolebindings", "team"), toAdmin, null);
        ObjectNode elsewhere = Rbac.bindingObject("RoleBinding", "other", "b", "ClusterRole", "admin", user("eve"));
        assertThrows(ApiException.class, () -> rbac.guard.requireMayWriteBinding(composed,
                create(bob, "rolebindings", "other"), elsewhere, null));
    }

    @Test
    void aBindingToAMissingRoleIsNotFound() {
        ObjectNode binding = Rbac.bindingObject("ClusterRoleBinding", "", "b", "ClusterRole", "nope", user("eve"));
        ApiException missing = assertThrows(ApiException.class, () -> rbac.guard.requireMayWriteBinding(composed,
                create(bob, "clusterrolebindings", ""), binding, null));
        assertEquals(404, missing.code());
        assertEquals("clusterroles.rbac.authorization.k8s.io \"nope\" not found", missing.getMessage());
        rbac.guard.requireMayWriteBinding(composed, create(person("root", UserInfo.MASTERS), "clusterrolebindings",
                ""), binding, null);
    }

    @Test
    void admitChecksTheFourRbacTypesAndLeavesOthersAlone() {
        ObjectNode grantsAll = Rbac.roleObject("Role", "team", "r",
                rule("{'verbs':['*'],'apiGroups':['*'],'resources':['*']}"));
        ApiException refused = assertThrows(ApiException.class, () -> rbac.guard.admit(composed, bob,
                RbacTypes.ROLES, "team", "", grantsAll, null));
        assertEquals(403, refused.code());
        ObjectNode toMissing = Rbac.bindingObject("RoleBinding", "team", "b", "Role", "missing", user("eve"));
        assertEquals(404, assertThrows(ApiException.class, () -> rbac.guard.admit(composed, bob,
                RbacTypes.ROLE_BINDINGS, "team", "", toMissing, null)).code());
        rbac.guard.admit(composed, bob, CONFIG_MAPS, "team", "", grantsAll, null);
        rbac.guard.admit(composed, bob, RbacTypes.ROLES, "team", "", Rbac.MAPPER.getNodeFactory().textNode("x"),
                null);
    }
}
