package io.watchgate.liveview;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/** The live view as a test sees it: what its table, log and indicator show, and its controls. */
final class LiveViewPage {

    /** How long a test waits for the page to show what it should (a failing wait says what it saw). */
    static final Duration PATIENCE = Duration.ofSeconds(10);

    /** A row of the table: the name, namespace, every cell's text, and the resourceVersion shown. */
    record Row(String namespace, String name, List<String> cells) {
        String resourceVersion() {
            return cells.get(cells.size() - 1);
        }
    }

    /** An event in the page's log, with the moment the page received it. */
    record Logged(String type, String name, long resourceVersion, Instant received) {
    }

    /** A table on the page, the chosen one first, then the pinned ones: its caption, its rows' names, its problem. */
    record Table(String caption, List<String> names, String problem) {
    }

    /**
     * Keeps, from the next page on, every EventSource a page makes, so that a test can count those open (a script
     * the browser runs before the page's own).
     */
    static final String KEEP_EVENT_SOURCES = """
            window.keptEventSources = [];
            window.EventSource = class extends window.EventSource {
              constructor(url, init) {
                super(url, init);
                window.keptEventSources.push(this);
              }
            };""";

    private final ChromeDriver browser;
    private final String origin;

    LiveViewPage(ChromeDriver browser, String origin) {
        this.browser = browser;
        this.origin = origin;
    }

    /** Opens the page with {@code query} (e.g. {@code ?resource=configmaps}) and waits for its first state. */
    LiveViewPage open(String query) {
        browser.get(origin + "/" + query);
        return this;
    }

    String url() {
        return browser.getCurrentUrl();
    }

    @SuppressWarnings("unchecked")
    List<Row> rows() {
        List<Map<String, Object>> rows = (List<Map<String, Object>>) browser.executeScript("""
                return [...document.querySelectorAll('#objects tbody tr')].map(tr => ({
                  namespace: tr.dataset.namespace, name: tr.dataset.name,
                  cells: [...tr.cells].map(cell => cell.textContent)}));""");
        return rows.stream().map(row -> new Row((String) row.get("namespace"), (String) row.get("name"),
                (List<String>) row.get("cells"))).toList();
    }

    List<String> names() {
        return rows().stream().map(Row::name).toList();
    }

    /** Every table shown, the chosen one first. */
    @SuppressWarnings("unchecked")
    List<Table> tables() {
        List<Map<String, Object>> tables = (List<Map<String, Object>>) browser.executeScript("""
                return [document.querySelector('.tables > section'), ...document.querySelectorAll('#pinned > section')]
                  .map(section => ({caption: section.querySelector('h2 span').textContent,
                    names: [...section.querySelectorAll('tbody tr')].map(tr => tr.dataset.name),
                    problem: (section.querySelector('.error') || document.getElementById('problem')).textContent}));""");
        return tables.stream().map(table -> new Table((String) table.get("caption"),
                (List<String>) table.get("names"), (String) table.get("problem"))).toList();
    }

    /** The URLs of the page's EventSources that are not closed (with {@link #KEEP_EVENT_SOURCES} run first). */
    @SuppressWarnings("unchecked")
    List<String> openEventSources() {
        return (List<String>) browser.executeScript("return window.keptEventSources"
                + ".filter(source => source.readyState !== EventSource.CLOSED).map(source => source.url)");
    }

    @SuppressWarnings("unchecked")
    List<String> headings() {
        return (List<String>) browser.executeScript(
                "return [...document.querySelectorAll('#objects thead th')].map(th => th.textContent)");
    }

    /** The connection indicator's state: live, reconnecting, relisting, listing, paused, failed or idle. */
    String connection() {
        return (String) browser.executeScript("return document.getElementById('connection').dataset.state");
    }

    String connectionText() {
        return browser.findElement(By.id("connection")).getText();
    }

    /** The object events the log shows, oldest first. */
    @SuppressWarnings("unchecked")
    List<Logged> events() {
        List<List<Object>> entries = (List<List<Object>>) browser.executeScript("""
                return [...document.querySelectorAll('#log li.event')].reverse().map(li => [li.dataset.type,
                  li.dataset.name, li.dataset.resourceVersion, li.querySelector('time').dateTime]);""");
        return entries.stream().map(entry -> new Logged((String) entry.get(0), (String) entry.get(1),
                Long.parseLong((String) entry.get(2)), Instant.parse((String) entry.get(3)))).toList();
    }

    /** The texts of the log's notices of {@code kind} (info, relist, error), oldest first. */
    @SuppressWarnings("unchecked")
    List<String> notices(String kind) {
        return (List<String>) browser.executeScript("return [...document.querySelectorAll('#log li.' + arguments[0]"
                + " + ' .text')].reverse().map(span => span.textContent)", kind);
    }

    WebElement element(String id) {
        return browser.findElement(By.id(id));
    }

    /** Types a label selector into its box and applies it with Enter, as a user does. */
    void filterBy(String labelSelector) {
        WebElement box = element("label-selector");
        box.clear();
        box.sendKeys(labelSelector, Keys.ENTER);
    }

    /** Waits for the page to offer the login, as it does where the gateway wants a credential. */
    void awaitLoginOffered() {
        await("the login offered", () -> element("login").isDisplayed(), Boolean.TRUE::equals);
    }

    /** Pastes a token into the login box and sends it with Enter, as a user does. */
    void signIn(String token) {
        element("token").sendKeys(token, Keys.ENTER);
    }

    /** The element that has the focus. */
    WebElement focused() {
        return browser.switchTo().activeElement();
    }

    void click(String id) {
        element(id).click();
    }

    String detailsText() {
        return element("details-text").getText();
    }

    /** Waits (PATIENCE at most) until {@code condition} holds for what {@code seen} reads from the page. */
    <T> T await(String what, Supplier<T> seen, Predicate<T> condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        T now = seen.get();
        while (!condition.test(now) && System.nanoTime() < deadline) {
            // the page runs on while the test waits in it, between its events
            browser.executeAsyncScript("const done = arguments[arguments.length - 1]; setTimeout(done, 50);");
            now = seen.get();
        }
        if (!condition.test(now)) {
            fail(what + "; the page shows " + now + " (at " + url() + ", " + connection() + ", problem: \""
                    + element("problem").getText() + "\", notices: " + notices("info") + notices("error") + ")");
        }
        return now;
    }

    void awaitConnection(String state) {
        await("the indicator says " + state, this::connection, state::equals);
    }
}
