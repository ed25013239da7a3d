package io.watchgate.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Nobody grants what they do not hold, whichever way they write: bob may write Roles and RoleBindings in his
 * namespace, and read configmaps there; a Role (created, replaced or patched) or a binding that would give more is
 * refused with Kubernetes' message, unless he may {@code bind} the role.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class EscalationTest {

    private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1/namespaces/";
    private static int runs;

    private String namespace;

    @BeforeEach
    void bobWritesRolesAndReadsConfigMaps() {
        namespace = "escalation-" + ++runs;
        Users.ADMIN.created("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}");
        Users.ADMIN.created(RBAC + namespace + "/roles", Rbac.role("rbac-writer",
                Rbac.rule("rbac.authorization.k8s.io", "roles,rolebindings", "create,update,patch,get"),
                Rbac.rule("", "configmaps", "get,list")));
        Users.ADMIN.created(RBAC + namespace + "/rolebindings", Rbac.roleBinding("bob", "Role", "rbac-writer",
                "User:bob"));
    }

    @Test
    void aRoleWithinWhatTheWriterHoldsIsWritten() {
        Users.BOB.created(RBAC + namespace + "/roles", Rbac.role("reader", Rbac.rule("", "configmaps", "get")));
    }

    @Test
    void aRoleGrantingMoreIsRefusedWhetherCreatedPutReplacedOrPatched() {
        String more = "roles.rbac.authorization.k8s.io \"reader\" is forbidden: user \"bob\" (groups=[\"ops\" \"devs\""
                + " \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
                + "{APIGroups:[\"\"], Resources:[\"configmaps\"], Verbs:[\"delete\"]}";
        Response create = Users.BOB.request().body(Rbac.role("reader", Rbac.rule("", "configmaps", "get,delete")))
                .post(RBAC + namespace + "/roles");
        forbidden(create, more);
        // a PUT that would create it is a create, checked as one
        forbidden(Users.BOB.request().body(Rbac.role("reader", Rbac.rule("", "configmaps", "get,delete")))
                .put(RBAC + namespace + "/roles/reader"), more);
        Users.BOB.created(RBAC + namespace + "/roles", Rbac.role("reader", Rbac.rule("", "configmaps", "get")));
        forbidden(Users.BOB.request().body(Rbac.role("reader", Rbac.rule("", "configmaps", "get,delete")))
                .put(RBAC + namespace + "/roles/reader"), more);
        forbidden(Users.BOB.request().contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/rules/0/verbs/-\",\"value\":\"delete\"}]")
                .patch(RBAC + namespace + "/roles/reader"), more);
        Response unchanged = Users.ADMIN.request().get(RBAC + namespace + "/roles/reader");
        assertEquals("[get]", unchanged.jsonPath().getList("rules[0].verbs").toString(), "nothing was stored");
    }

    @Test
    void aBindingToARoleTheWriterDoesNotHoldNeedsTheBindVerb() {
        Response refused = Users.BOB.request().body(Rbac.roleBinding("carol-views", "ClusterRole", "view",
                "User:carol")).post(RBAC + namespace + "/rolebindings");
        assertEquals(403, refused.statusCode(), refused.asString());
        assertTrue(refused.jsonPath().getString("message").startsWith("rolebindings.rbac.authorization.k8s.io"
                + " \"carol-views\" is forbidden: user \"bob\" (groups=[\"ops\" \"devs\" \"system:authenticated\"])"
                + " is attempting to grant RBAC permissions not currently held:\n"), refused.asString());
        Users.ADMIN.created(RBAC + namespace + "/roles", Rbac.role("bind-view",
                Rbac.rule("rbac.authorization.k8s.io", "clusterroles", "bind", "view")));
        Users.ADMIN.created(RBAC + namespace + "/rolebindings", Rbac.roleBinding("bob-binds", "Role", "bind-view",
                "User:bob"));
        Users.BOB.created(RBAC + namespace + "/rolebindings", Rbac.roleBinding("carol-views", "ClusterRole",
                "view", "User:carol"));
    }


    private static void forbidden(Response response, String message) {
        assertEquals(403, response.statusCode(), response.asString());
        assertEquals("Forbidden", response.jsonPath().getString("reason"));
        assertEquals(message, response.jsonPath().getString("message"));
    }
}
