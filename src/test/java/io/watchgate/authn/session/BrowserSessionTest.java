package io.watchgate.authn.session;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import io.watchgate.watch.WatchConnection;
import io.watchgate.watch.WebSocketUpgrades;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The browser login exchange: a bearer token buys an HttpOnly, Secure, SameSite=Strict session cookie, which
 * same-origin requests, EventSource and WebSocket watches are accepted with, renewed with, and logged out with; a
 * request with the cookie that a page of another site may have sent is refused and changes nothing.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class BrowserSessionTest {

    private static final String SESSION = "/watchgate/session";
    private static final String WHO_AM_I = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
    private static final String REVIEW = "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}";
    private static final String EVIL = "https://evil.example";

    @Test
    void aBearerTokenBuysASessionCookieScriptsCannotRead() {
        Response login = Users.ALICE.request().post(SESSION);
        assertEquals(201, login.statusCode(), login.asString());
        String cookie = login.header("Set-Cookie");
        assertTrue(cookie.matches("__Host-watchgate-session=[A-Za-z0-9_-]{43}; Path=/; Max-Age=(899|900); "
                + "HttpOnly; Secure; SameSite=Strict"), cookie);
        assertEquals("no-store", login.header("Cache-Control"));
        login.then().body("kind", equalTo("BrowserSession"))
                .body("status.userInfo.username", equalTo("alice"))
                .body("status.userInfo.groups", org.hamcrest.Matchers.contains("devs", "system:authenticated"));
        assertTrue(login.jsonPath().getString("status.expirationTimestamp").endsWith("Z"));
    }

    @Test
    void theCookieAuthenticatesRequestsFromTheServersOwnPages() {
        String cookie = login(Users.ALICE);
        page(cookie).get(SESSION).then().statusCode(200).body("status.userInfo.username", equalTo("alice"));
        page(cookie).header("Origin", ownOrigin()).body(REVIEW).post(WHO_AM_I).then().statusCode(201)
                .body("status.userInfo.username", equalTo("alice"));
        given().header("Cookie", "theme=dark").header("Cookie", SessionCredentials.COOKIE + "=" + cookie)
                .get(SESSION).then().statusCode(200).body("status.userInfo.username", equalTo("alice"));
    }

    @Test
    void aRequestAnotherSiteMayHaveSentIsRefusedAndChangesNothing() {
        String cookie = login(Users.ADMIN);
        String configMap = "{\"metadata\":{\"name\":\"planted\"},\"data\":{\"by\":\"evil\"}}";
        page(cookie).header("Origin", EVIL).body(configMap).post("/api/v1/namespaces/default/configmaps")
                .then().statusCode(403).body("reason", equalTo("Forbidden"))
                .body("message", equalTo("a request from a browser page the server does not trust was refused: its "
                        + "Origin \"https://evil.example\" is neither the server's own nor one "
                        + "quarkus.http.cors.origins lists"));
        page(cookie).body(configMap).post("/api/v1/namespaces/default/configmaps").then().statusCode(403)
                .body("message", containsString("a write must say which page sent it (Origin)"));
        page(cookie).header("Origin", ownOrigin()).contentType("text/plain").body(configMap)
                .post("/api/v1/namespaces/default/configmaps").then().statusCode(403)
                .body("message", containsString("its body is of type text/plain, which a form of any site may send"));
        given().cookie(SessionCredentials.COOKIE, cookie).header("Sec-Fetch-Site", "cross-site")
                .get("/api/v1/namespaces/default/configmaps").then().statusCode(403)
                .body("message", containsString("Sec-Fetch-Site: cross-site"));
        given().cookie(SessionCredentials.COOKIE, cookie).header("Sec-Fetch-Site", "same-site")
                .get("/api/v1/namespaces/default/configmaps").then().statusCode(403);
        Users.ADMIN.request().get("/api/v1/namespaces/default/configmaps/planted").then().statusCode(404);
    }

    @Test
    void renewalReplacesTheCookieOnceEvenFromTwoTabs() {
        String first = login(Users.BOB);
        Response renewal = page(first).header("Origin", ownOrigin()).post(SESSION);
        assertEquals(200, renewal.statusCode(), renewal.asString());
        String second = valueOf(renewal.header("Set-Cookie"));
        assertNotEquals(first, second);
        page(second).get(SESSION).then().statusCode(200).body("status.userInfo.username", equalTo("bob"));
        // another tab renewing with the value it still had: the first renewal's value stands, no new one is issued
        Response late = page(first).header("Origin", ownOrigin()).post(SESSION);
        assertEquals(200, late.statusCode(), late.asString());
        assertEquals(null, late.header("Set-Cookie"));
        page(second).get(SESSION).then().statusCode(200);
    }

    @Test
    void logoutRevokesTheCookieAndEndsTheWatchesItStarted() throws Exception {
        String cookie = login(Users.ADMIN);
        String watch = "/api/v1/namespaces/default/configmaps?watch=true";
        try (WatchConnection events = WatchConnection.open(watch, "Accept", "text/event-stream",
                "Cookie", SessionCredentials.COOKIE + "=" + cookie)) {
            assertEquals(200, events.status(), "an EventSource sends the cookie and no header of its own");
            String host = "localhost:" + RestAssured.port;
            String cookieHeader = "Cookie: " + SessionCredentials.COOKIE + "=" + cookie + "\r\n";
            assertEquals(101, WebSocketUpgrades.status(WebSocketUpgrades.upgrade(watch, host, ownOrigin(),
                    cookieHeader)));
            assertEquals(403, WebSocketUpgrades.status(WebSocketUpgrades.upgrade(watch, host, EVIL, cookieHeader)));

            Response logout = page(cookie).header("Origin", ownOrigin()).delete(SESSION);
            assertEquals(200, logout.statusCode(), logout.asString());
            assertTrue(logout.header("Set-Cookie").startsWith(SessionCredentials.COOKIE + "=; Path=/; Max-Age=0;"));
            assertTrue(events.endsWithin(Duration.ofSeconds(10)), "the watch ends with the session");
        }
        page(cookie).get("/api/v1/namespaces/default/configmaps").then().statusCode(401);
    }

    @Test
    void logoutWithAnotherCredentialStillEndsTheCookiesSession() {
        String cookie = login(Users.BOB);
        Users.BOB.request().cookie(SessionCredentials.COOKIE, cookie).delete(SESSION).then().statusCode(200);
        page(cookie).get(SESSION).then().statusCode(401);
    }

    @Test
    void aCookieNoSessionStandsForAndALoginWithoutCredentialsAre401() {
        Response stale = page("A".repeat(43)).get(SESSION);
        stale.then().statusCode(401).body("message", equalTo("Unauthorized"));
        assertTrue(stale.header("Set-Cookie").startsWith(SessionCredentials.COOKIE + "=; Path=/; Max-Age=0;"),
                "the browser is told to forget a cookie whose session ended");
        page("not-a-session").get(SESSION).then().statusCode(401);
        given().post(SESSION).then().statusCode(401);
        Users.CAROL.request().get(SESSION).then().statusCode(404).body("reason", equalTo("NotFound"));
    }

    private static String login(Users user) {
        Response login = user.request().post(SESSION);
        assertEquals(201, login.statusCode(), login.asString());
        return valueOf(login.header("Set-Cookie"));
    }

    private static String valueOf(String setCookie) {
        return setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
    }

    /** A request as the browser sends it for a page: the cookie, nothing else unless added. */
    private static RequestSpecification page(String cookie) {
        return given().cookie(SessionCredentials.COOKIE, cookie).contentType(ContentType.JSON);
    }

    private static String ownOrigin() {
        return "http://localhost:" + RestAssured.port;
    }
}
