package io.watchgate.watch.stream;

import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.watchgate.browser.Chromium;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * What streams are for: a page in a real Chromium, over HTTP/1.1 (some six connections to a host), follows twelve
 * collections through one EventSource and shows every change of each, in order.
 */
@QuarkusTest
@ExtendWith(Chromium.class)
class StreamsInChromiumTest {

    private static ChromeDriver browser;

    @BeforeAll
    static void startBrowser(ChromeDriver started) {
        browser = started;
    }

    @Test
    void onePageFollowsTwelveCollectionsThroughOneEventSource() {
        List<String> collections = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String ns = newNamespace("chromium-stream");
            collections.add("/api/v1/namespaces/" + ns + "/configmaps");
            collections.add("/api/v1/namespaces/" + ns + "/secrets");
        }
        browser.get("http://localhost:" + RestAssured.port + "/version");
        browser.executeScript("""
                document.body.innerHTML = '<p id="state">connecting</p><ol id="changes"></ol>';
                const query = arguments[0].map(url => 'watch=' + encodeURIComponent(url)).join('&');
                const source = new EventSource('/streams?' + query);
                source.onopen = () => document.getElementById('state').textContent = 'live';
                for (const type of ['ADDED', 'MODIFIED', 'DELETED']) {
                  source.addEventListener(type, event => {
                    const change = JSON.parse(event.data);
                    const item = document.createElement('li');
                    item.textContent = change.watch + ' ' + change.type + ' ' + change.object.metadata.name;
                    document.getElementById('changes').append(item);
                  });
                }""", collections);
        await(() -> browser.findElement(By.id("state")).getText().equals("live"), "the stream opened");

        List<String> expected = new ArrayList<>();
        for (String collection : collections) {
            boolean maps = collection.endsWith("configmaps");
            createOk(collection, maps ? configMap("one", "") : "{\"metadata\":{\"name\":\"one\"}}");
            RestAssured.given().contentType("application/merge-patch+json").body(maps ? "{\"data\":{\"k\":\"v\"}}"
                    : "{\"stringData\":{\"k\":\"v\"}}")
                    .patch(collection + "/one").then().statusCode(200);
            RestAssured.given().delete(collection + "/one").then().statusCode(200);
            for (String type : List.of("ADDED", "MODIFIED", "DELETED")) {
                expected.add(collection + " " + type + " one");
            }
        }
        await(() -> shown().size() >= expected.size(), "every change shown");
        assertEquals(expected, shown(), "each change once, in the order it was made");
    }

    private static List<String> shown() {
        return browser.findElements(By.cssSelector("#changes li")).stream().map(WebElement::getText).toList();
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + " within 15 s; the page shows " + shown());
            browser.executeAsyncScript("const done = arguments[arguments.length - 1]; setTimeout(done, 50);");
        }
    }
}
