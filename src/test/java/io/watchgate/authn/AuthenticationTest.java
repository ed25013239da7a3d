package io.watchgate.authn;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import org.junit.jupiter.api.Test;

/**
 * Who may connect: a request carries a bearer token an authenticator recognizes, or it is 401 with kube-apiserver's
 * bare Status, the same whatever it asked for, so a stranger learns nothing about what the server holds.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class AuthenticationTest {

    private static final String UNAUTHORIZED = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
            + "\"status\":\"Failure\",\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";

    @Test
    void aRequestWithoutCredentialsIsUnauthorizedWhateverItAsks() {
        for (String path : new String[] { "/api/v1/namespaces", "/api/v1/namespaces/default",
                "/api/v1/namespaces/no-such/configmaps/none", "/version", "/api", "/openapi/v2", "/nothing/here" }) {
            given().get(path).then().statusCode(401).contentType("application/json").body(equalTo(UNAUTHORIZED));
        }
        given().contentType("application/json").body("{}").post("/api/v1/namespaces").then().statusCode(401)
                .body(equalTo(UNAUTHORIZED));
    }

    @Test
    void aWatchWithoutCredentialsIsUnauthorizedBeforeItStarts() {
        given().get("/api/v1/namespaces/default/configmaps?watch=true").then().statusCode(401)
                .body(equalTo(UNAUTHORIZED));
        given().header("Accept", "text/event-stream").get("/api/v1/namespaces/default/configmaps?watch=true")
                .then().statusCode(401).body(equalTo(UNAUTHORIZED));
        given().header("Connection", "Upgrade").header("Upgrade", "websocket").header("Sec-WebSocket-Version", "13")
                .header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
                .get("/api/v1/namespaces/default/configmaps?watch=true").then().statusCode(401)
                .body(equalTo(UNAUTHORIZED));
    }

    @Test
    void aTokenNoAuthenticatorRecognizesIsUnauthorized() {
        given().header("Authorization", "Bearer not-a-token").get("/api/v1/namespaces").then().statusCode(401)
                .body(equalTo(UNAUTHORIZED));
        given().header("Authorization", "Bearer " + Users.ALICE.token() + "x").get("/api/v1/namespaces")
                .then().statusCode(401);
    }

    @Test
    void otherSchemesAreNoCredentialsAndAnonymousRequestsAreOff() {
        given().header("Authorization", "Basic YWRtaW46YWRtaW4=").get("/api/v1/namespaces").then().statusCode(401)
                .body(equalTo(UNAUTHORIZED));
    }

    @Test
    void aRecognizedTokenNamesItsUser() {
        Users.ADMIN.request().get("/api/v1/namespaces/default").then().statusCode(200)
                .body("metadata.name", equalTo("default"));
        Users.ALICE.request().body("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}")
                .post("/apis/authentication.k8s.io/v1/selfsubjectreviews").then().statusCode(201)
                .body("status.userInfo.username", equalTo("alice"))
                .body("status.userInfo.uid", equalTo("alice-uid"))
                .body("status.userInfo.groups", org.hamcrest.Matchers.contains("devs", "system:authenticated"));
    }
}
