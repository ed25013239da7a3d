package io.watchgate.liveview;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.watchgate.api.Api;
import io.watchgate.authn.session.SessionCredentials;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import io.watchgate.browser.Chromium;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The live view where the gateway wants to know who is asking ({@link RbacOn}): the page loads for anyone, offers
 * the login exchange, keeps no token, and what it reads no page of another site can.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
@ExtendWith(Chromium.class)
class LiveViewLoginTest {

    private static ChromeDriver browser;

    @BeforeAll
    static void startBrowser(ChromeDriver started) {
        browser = started;
    }

    @AfterEach
    void leavePage() {
        browser.get("about:blank");
        browser.executeCdpCommand("Network.clearBrowserCookies", Map.of()); // every site's: the next test signs in
    }

    @Test
    void thePageIsServedToAnyoneWhileTheApiWantsACredential() {
        given().get("/").then().statusCode(200).contentType(startsWith("text/html"))
                .header("Content-Security-Policy", containsString("script-src 'self'"))
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .header("X-Content-Type-Options", "nosniff");
        given().get("/live-view/main.js").then().statusCode(200).contentType(startsWith("text/javascript"));
        given().head("/").then().statusCode(200);
        given().get("/api").then().statusCode(401);
        given().post("/").then().statusCode(401); // only GET and HEAD are the page's: the rest is the API's
        given().get("/live-view/../application.properties").then().statusCode(401);
    }

    @Test
    void aUserSignsInWithATokenWatchesAndSignsOut() {
        String ns = newNamespace("signed-in");
        createConfigMap(ns, "before");
        LiveViewPage page = new LiveViewPage(browser, localhost()).open("?resource=configmaps&namespace=" + ns);
        page.awaitLoginOffered();

        page.signIn(Users.ADMIN.token());
        page.await("the table, once signed in", page::names, List.of("before")::equals);
        assertEquals("admin", page.element("user-name").getText());
        page.awaitConnection("live");
        createConfigMap(ns, "after");
        page.await("a new object, live", page::names, List.of("after", "before")::equals);

        assertEquals(0L, browser.executeScript("return localStorage.length + sessionStorage.length"),
                "nothing kept in storage");
        assertEquals("", page.element("token").getAttribute("value"), "the token field emptied");
        assertFalse(page.url().contains(Users.ADMIN.token()), page.url());
        assertFalse(String.valueOf(browser.executeScript("return document.cookie")).contains("watchgate"),
                "the session cookie is out of scripts' reach");

        page.click("logout");
        page.awaitLoginOffered();
        assertEquals("idle", page.connection(), "the watch ended with the session");
        assertEquals(0L, browser.executeScript("return document.querySelectorAll('#log li, #objects tbody tr').length"),
                "what the user saw is gone with the session: the next one to sign in does not read it");
        assertNull(browser.manage().getCookieNamed(SessionCredentials.COOKIE), "the cookie cleared");

        page.signIn(Users.ADMIN.token());
        page.await("the table listed again for the next session", page::names, List.of("after", "before")::equals);
        page.awaitConnection("live");
        createConfigMap(ns, "again");
        page.await("and live", page::names, List.of("after", "again", "before")::equals);
    }

    @Test
    void aTableItsUserMayListButNotWatchSaysSoWhileTheOtherTablesGoOn() {
        String ns = newNamespace("partly");
        createConfigMap(ns, "visible");
        Users.ADMIN.request().body("{\"metadata\":{\"name\":\"listed\"}}").post("/api/v1/namespaces/" + ns
                + "/secrets").then().statusCode(201);
        Users.ADMIN.request().body("""
                {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"reader"},"rules":[
                  {"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list","watch"]},
                  {"apiGroups":[""],"resources":["secrets"],"verbs":["list"]}]}""")
                .post("/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles").then().statusCode(201);
        Users.ADMIN.request().body("""
                {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"carol-reads"},
                 "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"reader"},
                 "subjects":[{"kind":"User","name":"carol","apiGroup":"rbac.authorization.k8s.io"}]}""")
                .post("/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings").then().statusCode(201);
        LiveViewPage page = new LiveViewPage(browser, localhost())
                .open("?resource=configmaps&namespace=" + ns + "&pin=secrets:" + ns + ":");
        page.awaitLoginOffered();
        page.signIn(Users.CAROL.token());

        // the secrets are listed, and their watch refused on the stream: a 403 event for it alone
        page.await("the secrets' table says why it shows nothing", page::tables, tables -> tables.size() == 2
                && tables.get(1).names().isEmpty() && tables.get(1).problem().contains("403")
                && tables.get(1).problem().contains("watch"));
        assertEquals(List.of("visible"), page.names());
        page.awaitConnection("live");
        createConfigMap(ns, "after");
        page.await("the configmaps still live", page::names, List.of("after", "visible")::equals);
    }

    @Test
    void aWrongTokenIsSaidAndSignsNoOneIn() {
        LiveViewPage page = new LiveViewPage(browser, localhost()).open("");
        page.awaitLoginOffered();
        page.signIn("not-a-token");
        page.await("the refusal said", () -> page.element("login-error").getText(),
                text -> text.startsWith("Not signed in") && text.contains("Unauthorized"));
        assertNull(browser.manage().getCookieNamed(SessionCredentials.COOKIE));
    }

    @Test
    void aPageOfAnotherSiteCannotReadWhatTheSignedInPageReads() {
        String ns = newNamespace("cross-site");
        createConfigMap(ns, "secret-plans");
        LiveViewPage page = new LiveViewPage(browser, localhost()).open("?resource=configmaps&namespace=" + ns);
        page.awaitLoginOffered();
        page.signIn(Users.ADMIN.token());
        page.await("the table, once signed in", page::names, List.of("secret-plans")::equals);

        // 127.0.0.1 is another site than localhost as far as cookies and CORS go: the live view there is signed out
        LiveViewPage elsewhere = new LiveViewPage(browser, "http://127.0.0.1:" + RestAssured.port).open("");
        elsewhere.awaitLoginOffered();
        String stream = localhost() + "/api/v1/namespaces/" + ns + "/configmaps?watch=true&as=Table"
                + "&includeObject=Object";
        assertEquals("failed", browser.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                fetch(arguments[0], {credentials: 'include'}).then(r => r.text()).then(t => done('read: ' + t))
                  .catch(() => done('failed'));""", stream), "a fetch of the stream from another site");
        assertEquals("error", browser.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                const source = new EventSource(arguments[0], {withCredentials: true});
                source.onopen = () => { source.close(); done('open'); };
                source.onerror = () => { source.close(); done('error'); };""", stream), "an EventSource from there");
    }

    private static String localhost() {
        return "http://localhost:" + RestAssured.port;
    }

    private static String newNamespace(String prefix) {
        return Api.newNamespace(Users.ADMIN.request(), prefix);
    }

    private static void createConfigMap(String ns, String name) {
        Users.ADMIN.request().body("{\"metadata\":{\"name\":\"" + name + "\"}}")
                .post("/api/v1/namespaces/" + ns + "/configmaps").then().statusCode(201);
    }
}
