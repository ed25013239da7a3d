package io.watchgate.authn;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.authz.RbacOn;
import io.restassured.response.Response;
import io.watchgate.authz.Users;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * JWTs of an OIDC issuer, as kube-apiserver's AuthenticationConfiguration accepts them: a valid one names the user its
 * claims map to; an expired one, one of another issuer or for another audience, one signed with a key the issuer does
 * not publish, or one failing a claim rule is 401 Unauthorized, and static tokens go on working beside them.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class JwtTokensTest {

    private static final Map<String, Object> ALICE = Map.of("email", "alice@example.com", "email_verified", true,
            "hd", "example.com", "roles", List.of("devs", "ops"));

    @Test
    void aValidTokenNamesTheUserItsClaimsMapTo() throws Exception {
        Response review = whoami(JwtIssuers.token(JwtIssuers.KEY, ALICE));
        assertEquals(201, review.statusCode(), review.asString());
        assertEquals("oidc:alice@example.com", review.jsonPath().getString("status.userInfo.username"));
        assertEquals(List.of("oidc:devs", "oidc:ops", "system:authenticated"),
                review.jsonPath().getList("status.userInfo.groups"));
        assertEquals("subject-1", review.jsonPath().getString("status.userInfo.uid"));
    }

    @Test
    void anExpiredTokenIsUnauthorized() throws Exception {
        assertUnauthorized(with("exp", System.currentTimeMillis() / 1000 - 60));
    }

    @Test
    void aTokenForAnotherAudienceIsUnauthorized() throws Exception {
        assertUnauthorized(with("aud", "someone-else"));
    }

    @Test
    void aTokenOfAnotherIssuerIsNoOnesAndUnauthorized() throws Exception {
        assertUnauthorized(with("iss", "https://elsewhere.test"));
    }

    @Test
    void aTokenSignedWithAKeyTheIssuerDoesNotPublishIsUnauthorized() throws Exception {
        assertUnauthorized(JwtIssuers.token(JwtIssuers.STRANGER, ALICE));
    }

    @Test
    void aTokenFailingAClaimRuleOrWithAnUnverifiedEmailIsUnauthorized() throws Exception {
        assertUnauthorized(with("hd", "elsewhere.com"));
        assertUnauthorized(with("email_verified", false));
    }

    @Test
    void aTamperedTokenIsUnauthorized() throws Exception {
        String token = JwtIssuers.token(JwtIssuers.KEY, ALICE);
        String[] parts = token.split("\\.");
        String claims = new String(java.util.Base64.getUrlDecoder().decode(parts[1]))
                .replace("alice@example.com", "admin@example.com");
        assertUnauthorized(parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes()) + "." + parts[2]);
    }

    @Test
    void aValidTokenBuysABrowserSessionForTheUserItNamesNoLongerThanTheTokenLasts() throws Exception {
        long exp = System.currentTimeMillis() / 1000 + 120;
        Response login = given().header("Authorization", "Bearer " + with("exp", exp)).post("/watchgate/session");
        assertEquals(201, login.statusCode(), login.asString());
        assertEquals(java.time.Instant.ofEpochSecond(exp).toString(),
                login.jsonPath().getString("status.maxExpirationTimestamp"));
        assertEquals(java.time.Instant.ofEpochSecond(exp).toString(),
                login.jsonPath().getString("status.expirationTimestamp"), "2 minutes, not the session's 15");
        String setCookie = login.header("Set-Cookie");
        String value = setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
        Response session = given().cookie("__Host-watchgate-session", value).get("/watchgate/session");
        assertEquals(200, session.statusCode(), session.asString());
        assertEquals("oidc:alice@example.com", session.jsonPath().getString("status.userInfo.username"));
    }

    @Test
    void staticTokensGoOnBesideThem() {
        Response review = given().header("Authorization", "Bearer " + Users.BOB.token())
                .contentType("application/json").body(REVIEW).post(PATH);
        assertEquals("bob", review.jsonPath().getString("status.userInfo.username"));
    }

    private static final String PATH = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    private static final String REVIEW = "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}";

    private static String with(String claim, Object value) throws Exception {
        Map<String, Object> claims = new HashMap<>(ALICE);
        claims.put(claim, value);
        return JwtIssuers.token(JwtIssuers.KEY, claims);
    }

    private static Response whoami(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json").body(REVIEW)
                .post(PATH);
    }

    private static void assertUnauthorized(String token) {
        Response review = whoami(token);
        assertEquals(401, review.statusCode(), review.asString());
        assertEquals("Unauthorized", review.jsonPath().getString("reason"));
    }
}
