package io.watchgate.authn;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.watchgate.authz.RbacOn;
import java.util.Map;
import org.jose4j.jwk.PublicJsonWebKey;
import org.junit.jupiter.api.Test;

/**
 * An issuer's keys found as kube-apiserver finds them: its discovery document names the key set, fetched over HTTPS
 * trusting the configured CA; when the issuer rotates its keys, a token naming the new key has them fetched again
 * (and is accepted once they are), while tokens naming keys nobody publishes cause a fetch at most every 10 s.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class JwtDiscoveryTest {

    private static final String PATH = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    private static final String REVIEW = "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}";
    private static final long WAIT_NANOS = 30_000_000_000L;

    @Test
    void keysComeFromTheIssuersDiscoveryDocument() throws Exception {
        Response review = firstAccepted(token(DiscoveredIssuer.FIRST));
        assertEquals("disco:subject-1", review.jsonPath().getString("status.userInfo.username"));
    }

    @Test
    void aTokenNamingARotatedKeyHasTheKeysFetchedAgain() throws Exception {
        firstAccepted(token(DiscoveredIssuer.FIRST));
        int before = DiscoveredIssuer.ISSUER.keyFetches();
        DiscoveredIssuer.ISSUER.publish(DiscoveredIssuer.FIRST, DiscoveredIssuer.SECOND);
        Response review = firstAccepted(token(DiscoveredIssuer.SECOND));
        assertEquals("disco:subject-1", review.jsonPath().getString("status.userInfo.username"));
        assertTrue(DiscoveredIssuer.ISSUER.keyFetches() > before, "the keys were fetched again");
        assertEquals(201, whoami(token(DiscoveredIssuer.FIRST)).statusCode(), "the first key stays published");
    }

    @Test
    void tokensNamingKeysNobodyPublishesFetchAtMostOnceInTenSeconds() throws Exception {
        PublicJsonWebKey stranger = JwtIssuers.ecKey("nobodys");
        int before = DiscoveredIssuer.ISSUER.keyFetches();
        long started = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            Response review = whoami(token(stranger));
            assertEquals(401, review.statusCode(), review.asString());
        }
        long allowed = 1 + (System.nanoTime() - started) / 10_000_000_000L;
        int fetched = DiscoveredIssuer.ISSUER.keyFetches() - before;
        assertTrue(fetched <= allowed, "fetched " + fetched + " times, at most " + allowed + " allowed");
    }

    private static String token(PublicJsonWebKey key) throws Exception {
        return JwtIssuers.token(key, Map.of("iss", DiscoveredIssuer.ISSUER.url));
    }

    /**
     * The answer to the token once the server holds the key it names: keys are fetched in the background (at start,
     * and after a token names a key they lack), so the first answers may be 401.
     */
    private static Response firstAccepted(String token) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        Response review = whoami(token);
        while (review.statusCode() == 401 && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L); // between polls of a background fetch
            review = whoami(token);
        }
        assertEquals(201, review.statusCode(), review.asString());
        return review;
    }

    private static Response whoami(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json").body(REVIEW)
                .post(PATH);
    }
}
