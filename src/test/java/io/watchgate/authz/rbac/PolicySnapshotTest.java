package io.watchgate.authz.rbac;

import static io.watchgate.authz.rbac.Rbac.rule;
import static io.watchgate.authz.rbac.Rbac.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.ObjectKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each of the four kinds added, changed and removed; a change copies only what it touches. */
class PolicySnapshotTest {

    private static final ObjectNode GET_PODS = rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}");
    private static final ObjectNode LIST_PODS = rule("{'verbs':['list'],'apiGroups':[''],'resources':['pods']}");

    private PolicySnapshot snapshot = PolicySnapshot.EMPTY;

    private void put(String resource, String namespace, ObjectNode object) {
        snapshot = snapshot.with(new ObjectKey(resource, namespace, object.path("metadata").path("name").asText()),
                object, snapshot.revision() + 1);
    }

    private void remove(String resource, String namespace, String name) {
        snapshot = snapshot.with(new ObjectKey(resource, namespace, name), null, snapshot.revision() + 1);
    }

    @Test
    void clusterRoles() {
        put(PolicySnapshot.CLUSTER_ROLES, "", Rbac.roleObject("ClusterRole", "", "r", GET_PODS));
        assertEquals(List.of(PolicyRule.from(GET_PODS)), snapshot.clusterRole("r"));
        put(PolicySnapshot.CLUSTER_ROLES, "", Rbac.roleObject("ClusterRole", "", "r", LIST_PODS));
        assertEquals(List.of(PolicyRule.from(LIST_PODS)), snapshot.clusterRole("r"));
        remove(PolicySnapshot.CLUSTER_ROLES, "", "r");
        assertNull(snapshot.clusterRole("r"));
    }

    @Test
    void roles() {
        put(PolicySnapshot.ROLES, "a", Rbac.roleObject("Role", "a", "r", GET_PODS));
        assertEquals(List.of(PolicyRule.from(GET_PODS)), snapshot.role("a", "r"));
        assertNull(snapshot.role("b", "r"));
        put(PolicySnapshot.ROLES, "a", Rbac.roleObject("Role", "a", "r", LIST_PODS));
        assertEquals(List.of(PolicyRule.from(LIST_PODS)), snapshot.role("a", "r"));
        remove(PolicySnapshot.ROLES, "a", "r");
        assertNull(snapshot.role("a", "r"));
        assertEquals(0, snapshot.roles().size(), "an emptied namespace is dropped");
    }

    @Test
    void clusterRoleBindings() {
        put(PolicySnapshot.CLUSTER_ROLE_BINDINGS, "",
                Rbac.bindingObject("ClusterRoleBinding", "", "b", "ClusterRole", "r", user("alice")));
        assertEquals(new RoleRef("rbac.authorization.k8s.io", "ClusterRole", "r"),
                snapshot.clusterRoleBindings().get("b").roleRef());
        put(PolicySnapshot.CLUSTER_ROLE_BINDINGS, "",
                Rbac.bindingObject("ClusterRoleBinding", "", "b", "ClusterRole", "r", user("bob")));
        assertEquals(List.of(new Subject("User", "bob", "")), snapshot.clusterRoleBindings().get("b").subjects());
        remove(PolicySnapshot.CLUSTER_ROLE_BINDINGS, "", "b");
        assertNull(snapshot.clusterRoleBindings().get("b"));
    }

    @Test
    void roleBindings() {
        put(PolicySnapshot.ROLE_BINDINGS, "a", Rbac.bindingObject("RoleBinding", "a", "b", "Role", "r", user("x")));
        assertEquals("a", snapshot.roleBindingsIn("a").get("b").namespace());
        put(PolicySnapshot.ROLE_BINDINGS, "a", Rbac.bindingObject("RoleBinding", "a", "b", "ClusterRole", "r"));
        assertEquals("ClusterRole", snapshot.roleBindingsIn("a").get("b").roleRef().kind());
        remove(PolicySnapshot.ROLE_BINDINGS, "a", "b");
        assertNull(snapshot.roleBindingsIn("a").get("b"));
    }

    @Test
    void aBindingLivesInTheNamespaceOfItsKeyWhateverItsBodySays() {
        put(PolicySnapshot.ROLE_BINDINGS, "a", Rbac.bindingObject("RoleBinding", "", "b", "Role", "r"));
        assertEquals("a", snapshot.roleBindingsIn("a").get("b").namespace());
    }

    @Test
    void aChangeInOneNamespaceSharesEveryOtherNamespacesBindings() {
        for (int i = 0; i < 100; i++) {
            put(PolicySnapshot.ROLE_BINDINGS, "ns" + i,
                    Rbac.bindingObject("RoleBinding", "ns" + i, "b", "Role", "r", user("u" + i)));
        }
        PolicySnapshot before = snapshot;
        put(PolicySnapshot.ROLE_BINDINGS, "ns7", Rbac.bindingObject("RoleBinding", "ns7", "c", "Role", "r"));
        for (int i = 0; i < 100; i++) {
            if (i != 7) {
                assertSame(before.roleBindingsIn("ns" + i), snapshot.roleBindingsIn("ns" + i));
            }
        }
        assertSame(before.clusterRoles(), snapshot.clusterRoles());
        assertSame(before.roles(), snapshot.roles());
        assertEquals(2, snapshot.roleBindingsIn("ns7").size());
    }

    @Test
    void aChangeCopiesOneChunkOfAMap() {
        ChunkedMap<Integer> map = ChunkedMap.empty();
        for (int i = 0; i < 3200; i++) {
            map = map.with("k" + i, i);
        }
        ChunkedMap<Integer> changed = map.with("k5", -5).without("k6");
        assertEquals(-5, changed.get("k5"));
        assertNull(changed.get("k6"));
        assertEquals(5, map.get("k5"), "the original is untouched");
        assertEquals(3199, changed.size());
        assertSame(map, map.without("absent"));
    }

    @Test
    void eventsOfOtherTypesLeaveTheSnapshotAsItIs() {
        put(PolicySnapshot.CLUSTER_ROLES, "", Rbac.roleObject("ClusterRole", "", "r", GET_PODS));
        PolicySnapshot before = snapshot;
        put("configmaps", "a", Rbac.json("{'metadata':{'name':'c'}}"));
        assertSame(before.clusterRoles(), snapshot.clusterRoles());
        assertEquals(before.roleBindings(), snapshot.roleBindings());
    }
}
