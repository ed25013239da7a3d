package io.watchgate.liveview;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.watchgate.browser.Chromium;
import io.watchgate.liveview.LiveViewPage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A board of tables in the live view, in a real browser over HTTP/1.1 (some six connections to a host): the table
 * the controls choose and the ones pinned below it, all fed by one EventSource on {@code /streams}, against a server
 * that ends every stream after 2-3 s and keeps 40 revisions of history ({@link LiveViewProfile}).
 */
@QuarkusTest
@TestProfile(LiveViewProfile.class)
@ExtendWith(Chromium.class)
class LiveViewTablesTest {

    private static ChromeDriver browser;
    private LiveViewPage page;

    @BeforeAll
    static void startBrowser(ChromeDriver started) {
        browser = started;
        browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
                Map.of("source", LiveViewPage.KEEP_EVENT_SOURCES));
    }

    @BeforeEach
    void newPage() {
        page = new LiveViewPage(browser, "http://localhost:" + RestAssured.port);
    }

    @AfterEach
    void leavePage() {
        browser.get("about:blank"); // ends the page's stream before the next test's page opens
    }

    @Test
    void eightTablesFollowedThroughOneEventSourceShowEveryChangeOfEach() {
        List<String> namespaces = new ArrayList<>();
        StringBuilder pins = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            String ns = newNamespace("board");
            namespaces.add(ns);
            createOk(configMaps(ns), configMap("cm-listed", ""));
            createOk(secrets(ns), secret("secret-listed"));
            pins.append(i == 0 ? "" : "&pin=configmaps:" + ns + ":").append("&pin=secrets:").append(ns).append(':');
        }
        page.open("?resource=configmaps&namespace=" + namespaces.get(0) + pins);
        page.await("eight tables, each with its object", page::tables, tables -> tables.size() == 8
                && tables.stream().allMatch(table -> table.names().size() == 1));
        page.awaitConnection("live");
        assertOneStreamOf(8);

        List<String> written = new ArrayList<>();
        List<Table> expected = new ArrayList<>();
        for (String ns : namespaces) {
            for (String collection : List.of(configMaps(ns), secrets(ns))) {
                boolean maps = collection.endsWith("configmaps");
                String prefix = maps ? "cm" : "secret";
                written.add("ADDED " + ns + "/" + prefix + "-new " + revision(createOk(collection,
                        maps ? configMap(prefix + "-new", "") : secret(prefix + "-new"))));
                written.add("MODIFIED " + ns + "/" + prefix + "-new " + revision(given()
                        .contentType("application/merge-patch+json").body("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}")
                        .patch(collection + "/" + prefix + "-new").then().statusCode(200).extract().response()));
                written.add("DELETED " + ns + "/" + prefix + "-listed " + revision(given()
                        .delete(collection + "/" + prefix + "-listed").then().statusCode(200).extract().response()));
                expected.add(new Table((maps ? "configmaps" : "secrets") + " in " + ns, List.of(prefix + "-new"), ""));
            }
        }
        page.await("every table in the state of its collection", page::tables, expected::equals);
        List<String> logged = page.await("every change logged once, in the order it was made", () -> page.events()
                .stream().filter(event -> namespaces.contains(event.name().split("/")[0]))
                .map(event -> event.type() + " " + event.name() + " " + event.resourceVersion()).toList(),
                events -> events.size() >= written.size());
        assertEquals(written, logged);
        assertOneStreamOf(8);
    }

    @Test
    void aPinnedTableStaysLiveWhileTheControlsChooseAnotherAndGoesWhenUnpinned() {
        String ns = newNamespace("pin");
        createOk(configMaps(ns), configMap("map", ""));
        createOk(secrets(ns), secret("secret"));
        page.open("?resource=configmaps&namespace=" + ns);
        page.await("the chosen table", page::names, List.of("map")::equals);
        page.awaitConnection("live");

        page.click("pin");
        page.await("the table pinned below it", page::tables, tables -> tables.size() == 2
                && tables.get(1).names().equals(List.of("map")));
        assertEquals("Pinned", page.element("pin").getText());
        assertFalse(page.element("pin").isEnabled(), "a table is pinned once");
        assertTrue(page.url().endsWith("&pin=configmaps:" + ns + ":"), page.url());
        assertEquals("Unpin configmaps in " + ns, page.focused().getAttribute("aria-label"),
                "the focus on what Pin made, not lost with the disabled button");

        page.element("resource").findElement(By.cssSelector("option[value='secrets']")).click();
        page.await("secrets chosen, configmaps still pinned", page::tables, tables -> tables.size() == 2
                && tables.get(0).names().equals(List.of("secret")) && tables.get(1).names().equals(List.of("map")));
        page.awaitConnection("live");
        createOk(configMaps(ns), configMap("map-2", ""));
        createOk(secrets(ns), secret("secret-2"));
        page.await("each change in its table", page::tables, tables -> tables.get(0).names().equals(
                List.of("secret", "secret-2")) && tables.get(1).names().equals(List.of("map", "map-2")));
        assertOneStreamOf(2);

        page.element("pinned").findElement(By.cssSelector("button.unpin")).click();
        page.await("the pinned table gone", page::tables, tables -> tables.size() == 1);
        assertFalse(page.url().contains("pin="), page.url());
        page.awaitConnection("live");
        assertOneStreamOf(1);

        browser.navigate().back();
        page.await("the pinned table back with Back", page::tables, tables -> tables.size() == 2
                && tables.get(1).names().equals(List.of("map", "map-2")));
    }

    @Test
    void aTablePinnedAsTheControlsChooseAnotherGetsItsRowsAll() {
        String ns = newNamespace("pin-race");
        createOk(configMaps(ns), configMap("map", ""));
        createOk(secrets(ns), secret("secret"));
        page.open("?resource=configmaps&namespace=" + ns);
        page.await("the chosen table", page::names, List.of("map")::equals);
        page.awaitConnection("live");

        // in one go, before the pinned table's list can come back
        browser.executeScript("""
                document.getElementById('pin').click();
                document.getElementById('resource').value = 'secrets';
                document.getElementById('choice').requestSubmit();""");
        page.await("secrets chosen, and the configmaps pinned with their rows", page::tables, tables ->
                tables.size() == 2 && tables.get(0).names().equals(List.of("secret"))
                        && tables.get(1).names().equals(List.of("map")));
        createOk(configMaps(ns), configMap("map-2", ""));
        page.await("the pinned table live", page::tables, tables -> tables.get(1).names().equals(
                List.of("map", "map-2")));
    }

    @Test
    void aPinnedTableWhoseTypeIsDeletedSaysSoWhileTheOthersGoOn() {
        String group = "board.liveview.test";
        String crd = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"apiextensions.k8s.io/v1\","
                + "\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":\"gizmos." + group + "\"},"
                + "\"spec\":{\"group\":\"" + group + "\",\"scope\":\"Namespaced\",\"names\":{\"plural\":\"gizmos\","
                + "\"kind\":\"Gizmo\"},\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,"
                + "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}}"
                + "}]}}").post(crd).then().statusCode(201);
        String ns = newNamespace("gone");
        createOk(configMaps(ns), configMap("map", ""));
        createOk("/apis/" + group + "/v1/namespaces/" + ns + "/gizmos", "{\"apiVersion\":\"" + group
                + "/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":\"g\"}}");
        page.open("?resource=configmaps&namespace=" + ns + "&pin=gizmos." + group + ":" + ns + ":");
        page.await("both tables", page::tables, tables -> tables.size() == 2
                && tables.get(0).names().equals(List.of("map")) && tables.get(1).names().equals(List.of("g")));
        page.awaitConnection("live");

        given().delete(crd + "/gizmos." + group).then().statusCode(200);
        // the server ends the stream within 3 s here, and takes it back no more: a URL of a type it does not serve
        page.await("the pinned table says its type is gone", page::tables, tables -> tables.get(1).names().isEmpty()
                && tables.get(1).problem().contains("404"));
        page.awaitConnection("live");
        createOk(configMaps(ns), configMap("after", ""));
        page.await("the other table live", page::names, List.of("after", "map")::equals);
        assertOneStreamOf(1);
    }

    @Test
    void historyCompactedUnderAPausedBoardListsEveryTableAgain() {
        String ns = newNamespace("board-expired");
        createOk(configMaps(ns), configMap("kept", ""));
        createOk(secrets(ns), secret("removed"));
        page.open("?resource=configmaps&namespace=" + ns + "&pin=secrets:" + ns + ":");
        page.await("both tables", page::tables, tables -> tables.size() == 2
                && tables.get(0).names().equals(List.of("kept")) && tables.get(1).names().equals(List.of("removed")));
        page.awaitConnection("live");

        page.click("pause");
        page.awaitConnection("paused");
        long kept = 0;
        for (int i = 0; i < 50; i++) { // more changes than the history holds (40 revisions here)
            kept = revision(given().contentType("application/merge-patch+json")
                    .body("{\"data\":{\"n\":\"" + i + "\"}}").patch(configMaps(ns) + "/kept").then().statusCode(200)
                    .extract().response());
        }
        given().delete(secrets(ns) + "/removed").then().statusCode(200);
        createOk(secrets(ns), secret("added"));
        page.click("pause"); // now "Resume"

        page.await("the 410 said in the log, and every table listed again", () -> page.notices("relist"),
                notices -> notices.stream().anyMatch(text -> text.contains("410") && text.contains("listing again"))
                        && notices.stream().anyMatch(text -> text.startsWith("configmaps in " + ns + ": listed 1 at "))
                        && notices.stream().anyMatch(text -> text.startsWith("secrets in " + ns + ": listed 1 at ")));
        long last = kept;
        page.await("every table listed again", page::tables, tables -> tables.get(1).names().equals(
                List.of("added")) && page.rows().get(0).resourceVersion().equals(Long.toString(last)));
        page.awaitConnection("live");
        createOk(secrets(ns), secret("after"));
        page.await("live again after the relist", page::tables, tables -> tables.get(1).names().equals(
                List.of("added", "after")));
        assertOneStreamOf(2);
    }

    private void assertOneStreamOf(int watches) {
        List<String> open = page.await("one stream of " + watches + " watches", page::openEventSources,
                sources -> sources.size() == 1 && sources.get(0).split("[?&]watch=", -1).length == watches + 1);
        assertTrue(open.get(0).startsWith("http://localhost:" + RestAssured.port + "/streams?"), open.get(0));
    }

    private static String secrets(String ns) {
        return "/api/v1/namespaces/" + ns + "/secrets";
    }

    private static String secret(String name) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"stringData\":{\"k\":\"v\"}}";
    }

    private static long revision(Response response) {
        return Long.parseLong(response.path("metadata.resourceVersion"));
    }
}
