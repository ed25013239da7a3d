package io.watchgate.authn.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.watchgate.api.Api;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import io.watchgate.browser.Chromium;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The login exchange in a real browser (Debian's Chromium, headless): a page of the server logs in with a bearer
 * token, the browser keeps the cookie where scripts cannot read it, an EventSource watch and a same-origin fetch go on
 * with it, a page of another site gets nothing done with it, and logout ends the watch.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
@ExtendWith(Chromium.class)
class ChromiumSessionTest {

    private static ChromeDriver browser;

    @BeforeAll
    static void startBrowser(ChromeDriver started) {
        browser = started;
    }

    @Test
    void aPageLogsInWatchesThroughEventSourceAndLogsOut() {
        String ns = newNamespace("browser");
        open("http://localhost:" + RestAssured.port + "/version");
        assertEquals("201 admin", script("""
                const done = arguments[arguments.length - 1];
                fetch('/watchgate/session', {method: 'POST', headers: {Authorization: 'Bearer ' + arguments[0]}})
                  .then(r => r.json().then(b => done(r.status + ' ' + b.status.userInfo.username)))
                  .catch(e => done('failed: ' + e));""", Users.ADMIN.token()));

        Cookie cookie = browser.manage().getCookieNamed(SessionCredentials.COOKIE);
        assertNotNull(cookie, "the browser kept the cookie (Secure, on http://localhost)");
        assertTrue(cookie.isHttpOnly() && cookie.isSecure(), cookie.toString());
        assertEquals("Strict", cookie.getSameSite());
        assertFalse(String.valueOf(browser.executeScript("return document.cookie")).contains("watchgate"),
                "no script reads it");

        browser.executeScript("""
                window.seen = [];
                const source = new EventSource(arguments[0]);
                source.addEventListener('ADDED', e => {
                  const data = JSON.parse(e.data);
                  window.seen.push('ADDED ' + (data.object || data).metadata.name);
                });
                source.onerror = () => window.seen.push('error ' + source.readyState);
                window.source = source;""", "/api/v1/namespaces/" + ns + "/configmaps?watch=true");
        Users.ADMIN.request().body("{\"metadata\":{\"name\":\"seen-by-the-page\"}}")
                .post("/api/v1/namespaces/" + ns + "/configmaps").then().statusCode(201);
        awaitSeen(seen -> seen.contains("ADDED seen-by-the-page"));

        assertEquals("201 admin", script("""
                const done = arguments[arguments.length - 1];
                fetch('/apis/authentication.k8s.io/v1/selfsubjectreviews', {method: 'POST',
                    headers: {'Content-Type': 'application/json'},
                    body: JSON.stringify({apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview'})})
                  .then(r => r.json().then(b => done(r.status + ' ' + b.status.userInfo.username)))
                  .catch(e => done('failed: ' + e));"""), "a same-origin fetch goes with the cookie");

        assertEquals("200", script("""
                const done = arguments[arguments.length - 1];
                fetch('/watchgate/session', {method: 'DELETE'}).then(r => done(String(r.status)))
                  .catch(e => done('failed: ' + e));"""));
        awaitSeen(seen -> seen.stream().anyMatch(event -> event.startsWith("error")));
        assertEquals(null, browser.manage().getCookieNamed(SessionCredentials.COOKIE), "logout cleared it");
    }

    @Test
    void aPageOfAnotherSiteGetsNothingDoneWithTheCookie() {
        String ns = newNamespace("browser-csrf");
        open("http://localhost:" + RestAssured.port + "/version");
        assertEquals("201", script("""
                const done = arguments[arguments.length - 1];
                fetch('/watchgate/session', {method: 'POST', headers: {Authorization: 'Bearer ' + arguments[0]}})
                  .then(r => done(String(r.status))).catch(e => done('failed: ' + e));""", Users.ADMIN.token()));

        open("http://127.0.0.1:" + RestAssured.port + "/version"); // another site, as far as cookies go
        String target = "http://localhost:" + RestAssured.port + "/api/v1/namespaces/" + ns + "/configmaps";
        script("""
                const done = arguments[arguments.length - 1];
                fetch(arguments[0], {method: 'POST', mode: 'no-cors', credentials: 'include',
                    headers: {'Content-Type': 'text/plain'}, body: '{"metadata":{"name":"planted"}}'})
                  .then(() => done('sent')).catch(e => done('failed: ' + e));""", target);
        browser.executeScript("""
                window.seen = [];
                const source = new EventSource(arguments[0], {withCredentials: true});
                source.onopen = () => window.seen.push('open');
                source.onerror = () => { window.seen.push('error'); source.close(); };""", target + "?watch=true");
        awaitSeen(seen -> seen.contains("error"));
        assertFalse(seenNow().contains("open"), "the watch did not start");
        Users.ADMIN.request().get("/api/v1/namespaces/" + ns + "/configmaps/planted").then().statusCode(404);
    }

    private static String newNamespace(String prefix) {
        return Api.newNamespace(Users.ADMIN.request(), prefix);
    }

    private static void open(String url) {
        browser.get(url);
    }

    private static String script(String body, Object... arguments) {
        return String.valueOf(browser.executeAsyncScript(body, arguments));
    }

    @SuppressWarnings("unchecked")
    private static List<String> seenNow() {
        return (List<String>) ((JavascriptExecutor) browser).executeScript("return window.seen");
    }

    /** Waits (10 s at most) for what the page saw to satisfy {@code condition}, asking the page between events. */
    private static void awaitSeen(Predicate<List<String>> condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> seen = seenNow();
        while (!condition.test(seen) && System.nanoTime() < deadline) {
            script("const done = arguments[arguments.length - 1]; setTimeout(() => done(''), 100);");
            seen = seenNow();
        }
        assertTrue(condition.test(seen), "the page saw " + seen);
    }
}
