package io.watchgate.liveview;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.labelled;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.watchgate.browser.Chromium;
import io.watchgate.liveview.LiveViewPage.Logged;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The live view in a real browser (Debian's Chromium, headless), against a server that ends every watch after 2-3 s
 * and keeps a history of 40 revisions ({@link LiveViewProfile}): what the page shows follows the store, through
 * stream ends and a history that no longer reaches back to it.
 */
@QuarkusTest
@TestProfile(LiveViewProfile.class)
@ExtendWith(Chromium.class)
class LiveViewTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SHOWN_WITHIN = Duration.ofSeconds(1);

    private static ChromeDriver browser;
    private LiveViewPage page;

    @BeforeAll
    static void startBrowser(ChromeDriver started) {
        browser = started;
    }

    @BeforeEach
    void newPage() {
        page = new LiveViewPage(browser, "http://localhost:" + RestAssured.port);
    }

    @AfterEach
    void leavePage() {
        browser.get("about:blank"); // ends the page's watch before the next test's page opens
    }

    @Test
    void objectsCreatedModifiedAndDeletedAppearChangeAndDisappearWithinASecond() {
        String ns = newNamespace("live");
        createOk(configMaps(ns), labelled("first", "{\"app\":\"hello\"}"));
        page.open("?resource=configmaps&namespace=" + ns);
        page.await("the listed object", page::names, List.of("first")::equals);
        page.awaitConnection("live");
        assertEquals(List.of("Name", "Data", "Labels", "Age", "Resource version"), page.headings(),
                "ConfigMaps' printer column (Data) between the columns every object has");

        Instant sent = Instant.now();
        long created = resourceVersion(createOk(configMaps(ns), labelled("second", "{\"app\":\"hello\"}")));
        assertShownWithinASecond("ADDED", ns + "/second", created, sent);
        page.await("the new row", page::rows, rows -> rows.size() == 2 && rows.get(1).name().equals("second")
                && rows.get(1).resourceVersion().equals(Long.toString(created)));

        sent = Instant.now();
        long modified = resourceVersion(given().contentType("application/merge-patch+json")
                .body("{\"data\":{\"size\":\"L\"}}").patch(configMaps(ns) + "/second").then().statusCode(200)
                .extract().response());
        assertShownWithinASecond("MODIFIED", ns + "/second", modified, sent);
        page.await("the changed row, with its new Data count", page::rows, rows -> rows.size() == 2
                && rows.get(1).resourceVersion().equals(Long.toString(modified))
                && rows.get(1).cells().get(1).equals("2"));

        sent = Instant.now();
        long deleted = resourceVersion(given().delete(configMaps(ns) + "/second").then().statusCode(200).extract()
                .response());
        assertShownWithinASecond("DELETED", ns + "/second", deleted, sent);
        page.await("the row gone", page::names, List.of("first")::equals);
    }

    @Test
    void aLabelSelectorFiltersOnTheServerAndAnObjectThatStopsMatchingDisappears() {
        String ns = newNamespace("selector");
        createOk(configMaps(ns), labelled("hello-1", "{\"app\":\"hello\"}"));
        createOk(configMaps(ns), labelled("hello-2", "{\"app\":\"hello\"}"));
        createOk(configMaps(ns), labelled("other", "{\"app\":\"other\"}"));
        page.open("?resource=configmaps&namespace=" + ns);
        page.await("every object", page::names, List.of("hello-1", "hello-2", "other")::equals);

        page.filterBy("app=hello");
        page.await("the objects that match", page::names, List.of("hello-1", "hello-2")::equals);
        page.awaitConnection("live");
        assertTrue(page.url().contains("labelSelector=app%3Dhello"), "the URL follows the choice: " + page.url());

        Instant sent = Instant.now();
        long relabelled = resourceVersion(given().contentType("application/merge-patch+json")
                .body("{\"metadata\":{\"labels\":{\"app\":\"bye\"}}}").patch(configMaps(ns) + "/hello-2").then()
                .statusCode(200).extract().response());
        assertShownWithinASecond("DELETED", ns + "/hello-2", relabelled, sent);
        page.await("the object that left the selector gone", page::names, List.of("hello-1")::equals);

        page.filterBy("app in (");
        page.await("the server's refusal of the selector, said", () -> page.element("problem").getText(),
                text -> text.contains("400") && text.contains("app in ("));
    }

    @Test
    void aStreamTheServerEndsIsResumedWithoutLosingOrRepeatingAnEvent() {
        String ns = newNamespace("resume");
        createOk(configMaps(ns), labelled("counter", "{\"app\":\"hello\"}"));
        page.open("?resource=configmaps&namespace=" + ns);
        page.awaitConnection("live");
        int resumedBefore = resumes();

        // writes while the page is live wait to be seen; writes while it reconnects do not: those it must catch up on
        List<Long> written = new ArrayList<>();
        while (resumes() < resumedBefore + 2 && written.size() < 300) {
            long version = patchCounter(ns, written.size());
            written.add(version);
            page.await("the write seen, or the stream ended", () -> List.of(page.connection(), shownVersion()),
                    seen -> !seen.get(0).equals("live") || seen.get(1).equals(Long.toString(version)));
        }
        assertTrue(resumes() >= resumedBefore + 2, "the server ended the page's stream twice while "
                + written.size() + " writes were made; the page's notices: " + page.notices("info"));
        for (int i = 0; i < 3; i++) {
            written.add(patchCounter(ns, written.size()));
        }

        long last = written.get(written.size() - 1);
        List<Long> seen = page.await("every write, once, in order", () -> page.events().stream()
                .filter(event -> event.name().equals(ns + "/counter")).map(Logged::resourceVersion).toList(),
                versions -> !versions.isEmpty() && versions.get(versions.size() - 1) == last);
        assertEquals(written, seen);
    }

    @Test
    void historyCompactedUnderAPausedPageMakesItListAgainAndShowTheRightState() {
        String ns = newNamespace("expired");
        long keptVersion = resourceVersion(createOk(configMaps(ns), labelled("kept", "{\"app\":\"hello\"}")));
        createOk(configMaps(ns), labelled("removed", "{\"app\":\"hello\"}"));
        page.open("?resource=configmaps&namespace=" + ns);
        page.await("both objects", page::names, List.of("kept", "removed")::equals);
        page.awaitConnection("live");

        page.click("pause");
        page.awaitConnection("paused");
        // more changes than the history holds (40 revisions here): the page's resourceVersion falls out of it
        for (int i = 0; i < 50; i++) {
            keptVersion = patch(ns, "kept", "{\"data\":{\"n\":\"" + i + "\"}}");
        }
        given().delete(configMaps(ns) + "/removed").then().statusCode(200);
        createOk(configMaps(ns), labelled("added", "{\"app\":\"hello\"}"));
        page.click("pause"); // now "Resume"

        page.await("the 410 said in the log", () -> page.notices("relist"), notices -> notices.stream()
                .anyMatch(text -> text.contains("410") && text.contains("listing again")));
        long kept = keptVersion;
        page.await("the state after the changes, listed again", page::rows, rows -> rows.size() == 2
                && rows.get(0).name().equals("added") && rows.get(1).name().equals("kept")
                && rows.get(1).resourceVersion().equals(Long.toString(kept)));
        page.awaitConnection("live");
        long more = patch(ns, "kept", "{\"data\":{\"n\":\"after\"}}");
        page.await("live again after the relist", page::rows, rows -> rows.get(1).resourceVersion()
                .equals(Long.toString(more)));
    }

    @Test
    void theUrlOpensAViewAndFollowsTheUsersChoices() {
        String ns = newNamespace("address");
        createOk(configMaps(ns), labelled("hello", "{\"app\":\"hello\"}"));
        createOk(configMaps(ns), labelled("other", "{\"app\":\"other\"}"));
        page.open("?resource=configmaps&namespace=" + ns + "&labelSelector=app%3Dhello");
        page.await("the view the URL names", page::names, List.of("hello")::equals);
        assertEquals("configmaps", page.element("resource").getAttribute("value"));
        assertEquals(ns, page.element("namespace").getAttribute("value"));
        assertEquals("app=hello", page.element("label-selector").getAttribute("value"));

        page.element("resource").findElement(By.cssSelector("option[value='namespaces']")).click();
        page.await("the namespaces the selector kept matches: none", page::names, List.of()::equals);
        page.filterBy("");
        page.await("the namespaces, cluster-wide", page::names, names -> names.contains(ns));
        assertTrue(page.url().endsWith("/?resource=namespaces"), page.url());

        browser.navigate().back();
        browser.navigate().back();
        page.await("the view before, again", page::names, List.of("hello")::equals);
        assertEquals(ns, page.element("namespace").getAttribute("value"));
    }

    @Test
    void aCustomTypeIsOfferedWithItsPrinterColumns() {
        String group = "liveview.test";
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"apiextensions.k8s.io/v1\","
                + "\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":\"gadgets." + group + "\"},"
                + "\"spec\":{\"group\":\"" + group + "\",\"scope\":\"Namespaced\",\"names\":{\"plural\":\"gadgets\","
                + "\"kind\":\"Gadget\"},\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,"
                + "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}},"
                + "\"additionalPrinterColumns\":[{\"name\":\"Size\",\"type\":\"integer\",\"jsonPath\":\".spec.size\"}]"
                + "}]}}").post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").then().statusCode(201);
        String ns = newNamespace("custom");
        String gadgets = "/apis/" + group + "/v1/namespaces/" + ns + "/gadgets";
        createOk(gadgets, "{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"g\"},"
                + "\"spec\":{\"size\":4}}");

        page.open("?resource=gadgets." + group + "&namespace=" + ns);
        page.await("the custom object with its Size", page::rows, rows -> rows.size() == 1
                && rows.get(0).cells().get(1).equals("4"));
        assertEquals(List.of("Name", "Size", "Labels", "Age", "Resource version"), page.headings());
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"size\":5}}").patch(gadgets + "/g")
                .then().statusCode(200);
        page.await("its printer column, live", page::rows, rows -> rows.get(0).cells().get(1).equals("5"));

        // numbers as the server keeps them, beyond what a JavaScript number holds
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"size\":12345678901234567891,"
                + "\"ratio\":1.50}}").patch(gadgets + "/g").then().statusCode(200);
        browser.findElement(By.cssSelector("#objects tbody tr")).click();
        page.click("show-json");
        page.await("the object as JSON, its numbers exact", page::detailsText,
                text -> text.contains("\"size\": 12345678901234567891") && text.contains("\"ratio\": 1.50"));
    }

    @Test
    void aRowOpensItsObjectReadOnlyAsYamlOrJsonByMouseOrKeyboard() throws Exception {
        String ns = newNamespace("details");
        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"a-first\"},\"data\":{\"color\":\"blue\"}}");
        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"b-second\"},\"data\":{\"color\":\"green\"}}");
        page.open("?resource=configmaps&namespace=" + ns);
        page.await("both rows", page::names, List.of("a-first", "b-second")::equals);

        browser.findElement(By.cssSelector("#objects tbody tr")).click();
        page.await("the object as YAML", page::detailsText, text -> text.contains("name: \"a-first\"")
                && text.contains("color: \"blue\""));
        page.click("show-json");
        String json = page.await("the object as JSON", page::detailsText, text -> text.startsWith("{"));
        assertEquals("a-first", JSON.readTree(json).path("metadata").path("name").asText());

        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        page.await("the details closed, the row focused again", () -> (String) browser.executeScript(
                "return document.activeElement.closest('tr')?.dataset.name"), "a-first"::equals);
        browser.switchTo().activeElement().sendKeys(Keys.ARROW_DOWN);
        browser.switchTo().activeElement().sendKeys(Keys.ENTER);
        page.await("the next row's object", page::detailsText, text -> text.contains("b-second"));
    }

    @Test
    void atThreeHundredSixtyPixelsWideNothingSpillsSideways() {
        String ns = newNamespace("narrow");
        createOk(configMaps(ns), labelled("a-rather-long-name-for-a-narrow-screen", "{\"app\":\"hello\","
                + "\"tier\":\"web\"}"));
        Dimension size = browser.manage().window().getSize();
        try {
            browser.manage().window().setSize(new Dimension(360, 740));
            page.open("?resource=configmaps&namespace=" + ns);
            page.await("the row", page::names, names -> names.size() == 1);
            long overflow = (Long) browser.executeScript(
                    "return document.documentElement.scrollWidth - document.documentElement.clientWidth");
            assertEquals(0, overflow, "the page is as wide as the window; the table scrolls in its own box");
        } finally {
            browser.manage().window().setSize(size);
        }
    }

    @Test
    void aScreenshotOfTheViewAtWork() throws Exception {
        String ns = "demo";
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"demo\"}}").post("/api/v1/namespaces");
        for (String[] object : new String[][] {{"frontend", "web"}, {"backend", "api"}, {"cache", "api"},
            {"settings", "web"}}) {
            createOk(configMaps(ns), "{\"metadata\":{\"name\":\"" + object[0] + "\",\"labels\":{\"app\":\"shop\","
                    + "\"tier\":\"" + object[1] + "\"}},\"data\":{\"replicas\":\"2\"}}");
        }
        for (String name : new String[] {"shop-tls", "shop-db"}) {
            createOk("/api/v1/namespaces/" + ns + "/secrets", "{\"metadata\":{\"name\":\"" + name
                    + "\",\"labels\":{\"app\":\"shop\"}},\"stringData\":{\"key\":\"value\"}}");
        }
        page.open("?resource=configmaps&namespace=" + ns + "&labelSelector=app%3Dshop&pin=secrets:" + ns
                + ":app%3Dshop");
        page.await("the shop's objects", page::names, names -> names.size() == 4);
        page.await("its secrets, pinned", page::tables, tables -> tables.size() == 2
                && tables.get(1).names().size() == 2);
        page.awaitConnection("live");
        for (int i = 0; i < 5; i++) {
            patch(ns, "backend", "{\"data\":{\"replicas\":\"" + (3 + i) + "\"}}");
        }
        page.await("the changes logged", page::events, events -> events.size() >= 5);
        page.await("the changes charted", () -> page.element("rate-now").getText(),
                text -> !text.endsWith(" 0/s at most in the last minute"));
        browser.findElement(By.cssSelector("#objects tbody tr[data-name='backend']")).click();
        page.await("the object's YAML", page::detailsText, text -> text.contains("replicas: \"7\""));

        Path screenshot = Path.of("target", "screenshots", "live-view.png");
        Files.createDirectories(screenshot.getParent());
        Dimension size = browser.manage().window().getSize();
        try {
            browser.manage().window().setSize(new Dimension(1280, 1100));
            browser.executeScript("window.scrollTo(0, 0)");
            Files.write(screenshot, browser.getScreenshotAs(OutputType.BYTES));
        } finally {
            browser.manage().window().setSize(size);
        }
        byte[] png = Files.readAllBytes(screenshot);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4), "a PNG");
    }

    private int resumes() {
        return (int) page.notices("info").stream().filter(text -> text.startsWith("resumed")).count();
    }

    private String shownVersion() {
        List<LiveViewPage.Row> rows = page.rows();
        return rows.isEmpty() ? "" : rows.get(0).resourceVersion();
    }

    private static long patchCounter(String ns, int n) {
        return patch(ns, "counter", "{\"data\":{\"n\":\"" + n + "\"}}");
    }

    private static long patch(String ns, String name, String mergePatch) {
        return resourceVersion(given().contentType("application/merge-patch+json").body(mergePatch)
                .patch(configMaps(ns) + "/" + name).then().statusCode(200).extract().response());
    }

    private static long resourceVersion(Response response) {
        return Long.parseLong(response.path("metadata.resourceVersion"));
    }

    /**
     * The page logged the event within a second of the write being sent (the log's time is when the page took the
     * event, in the same step as it changed the table; the browser and the test read one clock).
     */
    private void assertShownWithinASecond(String type, String name, long resourceVersion, Instant sent) {
        Logged logged = page.await(type + " " + name + " at " + resourceVersion + " in the log", page::events,
                events -> events.stream().anyMatch(event -> event.type().equals(type) && event.name().equals(name)
                        && event.resourceVersion() == resourceVersion))
                .stream().filter(event -> event.resourceVersion() == resourceVersion).findFirst().orElseThrow();
        Duration took = Duration.between(sent, logged.received());
        assertTrue(took.compareTo(SHOWN_WITHIN) <= 0, type + " " + name + " was shown " + took.toMillis()
                + " ms after the write was sent");
    }
}
