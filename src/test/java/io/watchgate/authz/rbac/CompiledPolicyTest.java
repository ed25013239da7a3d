package io.watchgate.authz.rbac;

import static io.watchgate.authz.rbac.Rbac.get;
import static io.watchgate.authz.rbac.Rbac.person;
import static io.watchgate.authz.rbac.Rbac.rule;
import static io.watchgate.authz.rbac.Rbac.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.authn.UserInfo;
import io.watchgate.store.MemoryStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Users' compiled rules: kept per policy, bounded, and never older than the policy. */
class CompiledPolicyTest {

    private static final int CAPACITY = 50;

    private final Rbac rbac = new Rbac(new MemoryStore(new ObjectMapper(), 1000, Long.MAX_VALUE,
            Clock.systemUTC()), CAPACITY);

    @Test
    void aUserIsCompiledOnceAndReusedUntilThePolicyChanges() {
        UserInfo alice = person("alice", "devs");
        CompiledPolicy policy = rbac.feed.current();
        UserRules first = policy.rulesOf(alice);
        assertSame(first, policy.rulesOf(new UserInfo("alice", "other-uid", alice.groups(), Map.of("x", List.of()))),
                "uid and extra make no difference to RBAC");
        assertFalse(first == policy.rulesOf(person("alice", "ops")), "other groups, other rules");
    }

    @Test
    void moreDistinctUsersThanTheBoundLeaveAtMostTheBound() {
        CompiledPolicy policy = rbac.feed.current();
        for (int i = 0; i < CAPACITY + 1000; i++) {
            rbac.authorizer.authorize(get(person("user" + i), "pods", "team", "p"));
            assertTrue(policy.usersHeld() <= CAPACITY, "after user " + i + ": " + policy.usersHeld());
        }
    }

    @Test
    void aUsersNamespacesAreBoundedToo() {
        UserInfo alice = person("alice");
        for (int i = 0; i < UserRules.MAX_NAMESPACES + 100; i++) {
            rbac.authorizer.authorize(get(alice, "pods", "ns" + i, "p"));
        }
        assertTrue(rbac.feed.current().rulesOf(alice).namespacesHeld() <= UserRules.MAX_NAMESPACES);
    }

    @Test
    void aPolicyChangeIsSeenAtOnceByAUserAlreadyCompiled() {
        UserInfo alice = person("alice");
        rbac.clusterRole("pod-reader", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"));
        assertFalse(rbac.allows(get(alice, "pods", "team", "p")));
        rbac.roleBinding("team", "alice-pods", "ClusterRole", "pod-reader", user("alice"));
        assertTrue(rbac.allows(get(alice, "pods", "team", "p")));
        rbac.delete(PolicySnapshot.ROLE_BINDINGS, "team", "alice-pods");
        assertFalse(rbac.allows(get(alice, "pods", "team", "p")));
        rbac.clusterRoleBinding("alice-pods", "pod-reader", user("alice"));
        assertTrue(rbac.allows(get(alice, "pods", "team", "p")));
    }

    @Test
    void aPolicyChangeStartsAnEmptyCache() {
        rbac.authorizer.authorize(get(person("alice"), "pods", "team", "p"));
        assertEquals(1, rbac.feed.current().usersHeld());
        rbac.clusterRole("any", rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"));
        assertEquals(0, rbac.feed.current().usersHeld());
    }
}
