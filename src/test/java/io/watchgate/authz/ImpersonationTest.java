package io.watchgate.authz;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl --as}: a user allowed the verb {@code impersonate} sends a request as another, and it is decided as
 * that user's; claims not allowed are refused, naming what was claimed.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class ImpersonationTest {

    private static final String WHO_AM_I = "/apis/authentication.k8s.io/v1/selfsubjectreviews";

    @Test
    void anAdministratorActsAsAnotherUserAndIsDecidedAsThem() {
        Users.ADMIN.request().header("Impersonate-User", "dave").body("{}").post(WHO_AM_I).then().statusCode(201)
                .body("status.userInfo.username", equalTo("dave"))
                .body("status.userInfo.groups", contains("system:authenticated"));
        Users.ADMIN.request().header("Impersonate-User", "dave").get("/api/v1/namespaces").then().statusCode(403)
                .body("message", equalTo("namespaces is forbidden: User \"dave\" cannot list resource"
                        + " \"namespaces\" in API group \"\" at the cluster scope"));
        Users.ADMIN.request().header("Impersonate-User", "dave").header("Impersonate-Group", "ops")
                .header("Impersonate-Group", "system:masters").get("/api/v1/namespaces").then().statusCode(200);
    }

    @Test
    void aUserNotAllowedToImpersonateIsRefusedNamingTheClaim() {
        Users.ALICE.request().header("Impersonate-User", "bob").get("/api/v1/namespaces").then().statusCode(403)
                .body("message", equalTo("users \"bob\" is forbidden: User \"alice\" cannot impersonate resource"
                        + " \"users\" in API group \"\" at the cluster scope"));
    }

    @Test
    void groupsWithoutAUserAreABadRequest() {
        Users.ADMIN.request().header("Impersonate-Group", "ops").get("/api/v1/namespaces").then().statusCode(400)
                .body("message", equalTo("requested groups without impersonating a user"));
    }

    @Test
    void extraKeysAreReadAsKubeReadsThemAndEmptyHeadersClaimNothing() {
        Users.ADMIN.request().header("Impersonate-User", "dave").header("Impersonate-Extra-%zz", "v")
                .header("Impersonate-Extra-a%2Fb+c", "w").body("{}").post(WHO_AM_I).then().statusCode(201)
                .body("status.userInfo.extra.'%zz'", contains("v"))
                .body("status.userInfo.extra.'a/b+c'", contains("w"));
        Users.ALICE.request().header("Impersonate-User", "").body("{}").post(WHO_AM_I).then().statusCode(201)
                .body("status.userInfo.username", equalTo("alice"));
    }

    @Test
    void aServiceAccountIsNamespaceAndNameAndNothingElse() {
        Users.ADMIN.request().header("Impersonate-User", "system:serviceaccount:ns:robot").body("{}").post(WHO_AM_I)
                .then().statusCode(201).body("status.userInfo.groups", contains("system:serviceaccounts",
                        "system:serviceaccounts:ns", "system:authenticated"));
        Users.ALICE.request().header("Impersonate-User", "system:serviceaccount:ns:a:b").body("{}").post(WHO_AM_I)
                .then().statusCode(403).body("message", equalTo("users \"system:serviceaccount:ns:a:b\" is"
                        + " forbidden: User \"alice\" cannot impersonate resource \"users\" in API group \"\" at the"
                        + " cluster scope"));
    }

    @Test
    void aGrantToImpersonateOneUserIsThatUserOnly() {
        Users.ADMIN.request().body(Rbac.clusterRole("impersonate-erin", Rbac.rule("", "users", "impersonate",
                "erin"))).post("/apis/rbac.authorization.k8s.io/v1/clusterroles").then().statusCode(201);
        Users.ADMIN.request().body(Rbac.clusterRoleBinding("carol-as-erin", "impersonate-erin", "User:carol"))
                .post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings").then().statusCode(201);
        Users.CAROL.request().header("Impersonate-User", "erin").body("{}").post(WHO_AM_I).then().statusCode(201)
                .body("status.userInfo.username", equalTo("erin"));
        Users.CAROL.request().header("Impersonate-User", "frank").body("{}").post(WHO_AM_I).then().statusCode(403);
        Users.CAROL.request().header("Impersonate-User", "erin").header("Impersonate-Group", "system:masters")
                .body("{}").post(WHO_AM_I).then().statusCode(403)
                .body("message", equalTo("groups \"system:masters\" is forbidden: User \"carol\" cannot impersonate"
                        + " resource \"groups\" in API group \"\" at the cluster scope"));
    }
}
