package io.watchgate.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.watchgate.authn.UserInfo;
import io.watchgate.status.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A refused request's 403 is worded as kube-apiserver words it, so clients and people read what they know. */
class ForbiddenTest {

    private static final UserInfo ALICE = UserInfo.authenticated("alice", "1", List.of("devs"));

    @Test
    void aNamespacedCollection() {
        ApiException e = Forbidden.of(Attributes.resource(ALICE, "list", "", "v1", "configmaps", "", "y", ""), "");
        assertEquals(403, e.code());
        assertEquals("Forbidden", e.reason());
        assertEquals("configmaps is forbidden: User \"alice\" cannot list resource \"configmaps\" in API group \"\""
                + " in the namespace \"y\"", e.getMessage());
    }

    @Test
    void aNamedObjectOfAGroupAtTheClusterScope() {
        ApiException e = Forbidden.of(Attributes.resource(ALICE, "delete", "rbac.authorization.k8s.io", "v1",
                "clusterroles", "", "", "admin"), "");
        assertEquals("clusterroles.rbac.authorization.k8s.io \"admin\" is forbidden: User \"alice\" cannot delete"
                + " resource \"clusterroles\" in API group \"rbac.authorization.k8s.io\" at the cluster scope",
                e.getMessage());
        assertEquals("admin", e.details().name());
        assertEquals("clusterroles", e.details().kind());
    }

    @Test
    void aSubresourceAndAReason() {
        ApiException e = Forbidden.of(Attributes.resource(ALICE, "update", "", "v1", "pods", "status", "y", "p"),
                "RBAC: role.rbac.authorization.k8s.io \"gone\" not found");
        assertEquals("pods \"p\" is forbidden: User \"alice\" cannot update resource \"pods/status\" in API group"
                + " \"\" in the namespace \"y\": RBAC: role.rbac.authorization.k8s.io \"gone\" not found",
                e.getMessage());
    }

    @Test
    void aPath() {
        ApiException e = Forbidden.of(Attributes.nonResource(ALICE, "get", "/openapi/v2"), "");
        assertEquals("forbidden: User \"alice\" cannot get path \"/openapi/v2\"", e.getMessage());
    }
}
