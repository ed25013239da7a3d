package io.watchgate.authz.rbac;

import static io.watchgate.authz.rbac.Rbac.get;
import static io.watchgate.authz.rbac.Rbac.group;
import static io.watchgate.authz.rbac.Rbac.person;
import static io.watchgate.authz.rbac.Rbac.rule;
import static io.watchgate.authz.rbac.Rbac.serviceAccount;
import static io.watchgate.authz.rbac.Rbac.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.authz.Decision;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Who a binding grants its role to, and where. */
class RbacAuthorizerTest {

    private final Rbac rbac = new Rbac();
    private final UserInfo alice = person("alice", "devs");

    RbacAuthorizerTest() {
        rbac.clusterRole("pod-reader", rule("{'verbs':['get','list'],'apiGroups':[''],'resources':['pods']}"));
        rbac.role("team", "secret-reader", rule("{'verbs':['get'],'apiGroups':[''],'resources':['secrets']}"));
    }

    @Test
    void nothingIsAllowedWithoutBindings() {
        assertEquals(Decision.DENY, rbac.authorizer.authorize(get(alice, "pods", "team", "p")));
    }

    @Test
    void aClusterRoleBindingToAUserGrantsInEveryNamespaceAndClusterWide() {
        rbac.clusterRoleBinding("alice-reads", "pod-reader", user("alice"));
        assertTrue(rbac.allows(get(alice, "pods", "team", "p")));
        assertTrue(rbac.allows(get(alice, "pods", "other", "p")));
        assertTrue(rbac.allows(Attributes.resource(alice, "list", "", "v1", "pods", "", "", "")));
        assertFalse(rbac.allows(get(person("bob"), "pods", "team", "p")));
        assertFalse(rbac.allows(Attributes.resource(alice, "delete", "", "v1", "pods", "", "team", "p")));
    }

    @Test
    void aGroupSubjectGrantsToItsMembers() {
        rbac.clusterRoleBinding("devs-read", "pod-reader", group("devs"));
        assertTrue(rbac.allows(get(alice, "pods", "team", "p")));
        assertFalse(rbac.allows(get(person("bob", "ops"), "pods", "team", "p")));
        rbac.clusterRoleBinding("everyone-reads", "pod-reader", group("system:authenticated"));
        assertTrue(rbac.allows(get(person("bob", "ops"), "pods", "team", "p")));
        assertFalse(rbac.allows(get(UserInfo.anonymous(), "pods", "team", "p")));
    }

    @Test
    void aRoleBindingGrantsOnlyInItsNamespace() {
        rbac.roleBinding("team", "alice-secrets", "Role", "secret-reader", user("alice"));
        assertTrue(rbac.allows(get(alice, "secrets", "team", "s")));
        assertFalse(rbac.allows(get(alice, "secrets", "other", "s")));
        assertFalse(rbac.allows(get(alice, "secrets", "", "s")), "cluster-wide");
    }

    @Test
    void aRoleBindingToAClusterRoleGrantsItsRulesInTheBindingsNamespaceOnly() {
        rbac.roleBinding("team", "alice-pods", "ClusterRole", "pod-reader", user("alice"));
        assertTrue(rbac.allows(get(alice, "pods", "team", "p")));
        assertFalse(rbac.allows(get(alice, "pods", "other", "p")));
        assertFalse(rbac.allows(Attributes.resource(alice, "list", "", "v1", "pods", "", "", "")));
    }

    @Test
    void aRoleBindingCannotReachARoleOfAnotherNamespace() {
        rbac.roleBinding("other", "alice-secrets", "Role", "secret-reader", user("alice"));
        Decision decision = rbac.authorizer.authorize(get(alice, "secrets", "other", "s"));
        assertFalse(decision.allowed());
        assertEquals("RBAC: role.rbac.authorization.k8s.io \"secret-reader\" not found", decision.reason());
    }

    @Test
    void aServiceAccountIsItsUserNameAndDefaultsToTheBindingsNamespace() {
        UserInfo builder = person("system:serviceaccount:team:builder", "system:serviceaccounts");
        rbac.roleBinding("team", "builder-secrets", "Role", "secret-reader", serviceAccount("", "builder"));
        assertTrue(rbac.allows(get(builder, "secrets", "team", "s")));
        assertFalse(rbac.allows(get(person("system:serviceaccount:other:builder"), "secrets", "team", "s")));
        assertFalse(rbac.allows(get(person("builder"), "secrets", "team", "s")));
    }

    @Test
    void aServiceAccountOfAnotherNamespaceCanBeBound() {
        rbac.roleBinding("team", "ci-secrets", "Role", "secret-reader", serviceAccount("ci", "runner"));
        assertTrue(rbac.allows(get(person("system:serviceaccount:ci:runner"), "secrets", "team", "s")));
        assertFalse(rbac.allows(get(person("system:serviceaccount:team:runner"), "secrets", "team", "s")));
    }

    @Test
    void aServiceAccountWithoutNamespaceInAClusterRoleBindingMatchesNobody() {
        rbac.clusterRoleBinding("sa-reads", "pod-reader", serviceAccount("", "builder"));
        assertFalse(rbac.allows(get(person("system:serviceaccount::builder"), "pods", "team", "p")));
        rbac.clusterRoleBinding("sa-reads-ns", "pod-reader", serviceAccount("team", "builder"));
        assertTrue(rbac.allows(get(person("system:serviceaccount:team:builder"), "pods", "other", "p")));
    }

    @Test
    void anUnknownSubjectKindMatchesNobody() {
        rbac.clusterRoleBinding("odd", "pod-reader", Rbac.json("{'kind':'Robot','name':'alice'}"));
        assertFalse(rbac.allows(get(alice, "pods", "team", "p")));
    }

    @Test
    void aBindingToAMissingRoleDeniesWithKubesReason() {
        rbac.clusterRoleBinding("alice-x", "x", user("alice"));
        Decision decision = rbac.authorizer.authorize(get(alice, "pods", "team", "p"));
        assertEquals(new Decision(false, "RBAC: clusterrole.rbac.authorization.k8s.io \"x\" not found"), decision);
    }

    @Test
    void aMissingRoleDoesNotHideWhatOtherBindingsGrant() {
        rbac.clusterRoleBinding("alice-x", "x", user("alice"));
        rbac.clusterRoleBinding("alice-reads", "pod-reader", user("alice"));
        assertEquals(Decision.ALLOW, rbac.authorizer.authorize(get(alice, "pods", "team", "p")));
    }

    @Test
    void severalResolutionErrorsAreListedOnceEachInBrackets() {
        rbac.clusterRoleBinding("alice-x", "x", user("alice"));
        rbac.clusterRoleBinding("devs-x", "x", group("devs"));
        rbac.roleBinding("team", "alice-y", "Role", "y", user("alice"));
        Decision decision = rbac.authorizer.authorize(get(alice, "pods", "team", "p"));
        assertEquals("RBAC: [clusterrole.rbac.authorization.k8s.io \"x\" not found, "
                + "role.rbac.authorization.k8s.io \"y\" not found]", decision.reason());
    }

    @Test
    void aBindingToAMissingRoleOfAnotherUserSaysNothing() {
        rbac.clusterRoleBinding("bob-x", "x", user("bob"));
        assertEquals(Decision.DENY, rbac.authorizer.authorize(get(alice, "pods", "team", "p")));
    }

    @Test
    void systemMastersIsNotSpecialHere() {
        UserInfo master = person("root", UserInfo.MASTERS);
        assertFalse(rbac.allows(get(master, "pods", "team", "p")));
    }

    @Test
    void rulesForListsResourceAndNonResourceRulesHeldInTheNamespace() {
        rbac.clusterRole("health", rule("{'verbs':['get'],'nonResourceURLs':['/healthz']}"));
        rbac.clusterRoleBinding("alice-health", "health", user("alice"));
        rbac.roleBinding("team", "alice-secrets", "Role", "secret-reader", user("alice"));
        RulesInNamespace inTeam = rbac.authorizer.rulesFor(alice, "team");
        assertEquals(List.of(PolicyRule.from(rule("{'verbs':['get'],'apiGroups':[''],'resources':['secrets']}"))),
                inTeam.resourceRules());
        assertEquals(List.of(PolicyRule.from(rule("{'verbs':['get'],'nonResourceURLs':['/healthz']}"))),
                inTeam.nonResourceRules());
        assertEquals(new RulesInNamespace(List.of(), inTeam.nonResourceRules(), false, ""),
                rbac.authorizer.rulesFor(alice, "other"));
        assertEquals(List.of(), rbac.authorizer.rulesFor(alice, "").resourceRules(), "cluster scope only");
    }

    @Test
    void rulesForIsIncompleteWithTheErrorWhenARoleIsMissing() {
        rbac.roleBinding("team", "alice-y", "Role", "y", user("alice"));
        rbac.roleBinding("team", "alice-secrets", "Role", "secret-reader", user("alice"));
        RulesInNamespace review = rbac.authorizer.rulesFor(alice, "team");
        assertEquals(1, review.resourceRules().size());
        assertTrue(review.incomplete());
        assertEquals("role.rbac.authorization.k8s.io \"y\" not found", review.evaluationError());
    }

    @Test
    void aRuleNamingResourcesAndUrlsIsListedInBoth() {
        rbac.clusterRole("both", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods'],"
                + "'nonResourceURLs':['/x']}"));
        rbac.clusterRoleBinding("alice-both", "both", user("alice"));
        RulesInNamespace review = rbac.authorizer.rulesFor(alice, "team");
        assertEquals(review.resourceRules(), review.nonResourceRules());
        assertEquals(1, review.resourceRules().size());
    }

    @Test
    void rulesAreWrittenAsASubjectRulesReviewStatus() {
        rbac.clusterRole("health", rule("{'verbs':['get'],'nonResourceURLs':['/healthz']}"));
        rbac.clusterRoleBinding("alice-health", "health", user("alice"));
        rbac.roleBinding("team", "alice-secrets", "Role", "secret-reader", user("alice"));
        rbac.roleBinding("team", "alice-y", "Role", "y", user("alice"));
        ObjectNode status = Rbac.json("{}");
        rbac.authorizer.rulesFor(alice, "team").writeTo(status);
        assertEquals(Rbac.json("{'resourceRules':[{'verbs':['get'],'apiGroups':[''],'resources':['secrets']}],"
                + "'nonResourceRules':[{'verbs':['get'],'nonResourceURLs':['/healthz']}],'incomplete':true,"
                + "'evaluationError':'role.rbac.authorization.k8s.io \\\"y\\\" not found'}"), status);
    }
}
