package io.watchgate.watch;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.currentRevision;
import static io.watchgate.api.Api.labelled;
import static io.watchgate.api.Api.newNamespace;
import static io.watchgate.watch.WatchConnection.name;
import static io.watchgate.watch.WatchConnection.revision;
import static io.watchgate.watch.WatchConnection.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.watchgate.store.HistoryCompaction;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The watch protocol as Kubernetes clients rely on it, over chunked HTTP. */
@QuarkusTest
class WatchProtocolTest {

    private static final Duration QUIET = Duration.ofMillis(500);

    @Inject
    Store store;

    @Inject
    HistoryCompaction history;

    @Test
    void aWatchWithoutResourceVersionStartsWithEveryObjectAsAddedThenFollowsChanges() {
        String ns = newNamespace("watch-initial");
        createOk(configMaps(ns), configMap("a", "\"data\":{\"k\":\"1\"}"));
        createOk(configMaps(ns), configMap("b", ""));
        try (WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=true")) {
            assertEquals(200, watch.status());
            assertEquals("application/json", watch.header("content-type"));
            List<JsonNode> initial = watch.nextEvents(2);
            assertEquals(List.of("ADDED", "ADDED"), initial.stream().map(WatchConnection::type).toList());
            assertEquals(List.of("a", "b"), initial.stream().map(WatchConnection::name).toList());

            long updated = revisionOf(given().contentType(ContentType.JSON)
                    .body(configMap("a", "\"data\":{\"k\":\"2\"}")).put(configMaps(ns) + "/a"));
            JsonNode modified = watch.next();
            assertEquals("MODIFIED", type(modified));
            assertEquals(updated, revision(modified));
            assertEquals("2", modified.path("object").path("data").path("k").asText());

            long deletedAt = currentRevision() + 1;
            given().delete(configMaps(ns) + "/b").then().statusCode(200);
            JsonNode deleted = watch.next();
            assertEquals("DELETED", type(deleted));
            assertEquals("b", name(deleted));
            assertEquals(deletedAt, revision(deleted), "a DELETED object carries the delete's resourceVersion");
        }
    }

    @Test
    void aWatchFromAResourceVersionDeliversExactlyTheChangesAfterIt() {
        String ns = newNamespace("watch-from");
        long created = revisionOf(createOk(configMaps(ns), configMap("a", "")));
        long updated = revisionOf(given().contentType(ContentType.JSON)
                .body(configMap("a", "\"data\":{\"k\":\"2\"}")).put(configMaps(ns) + "/a"));
        long added = revisionOf(createOk(configMaps(ns), configMap("b", "")));
        try (WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=1&resourceVersion=" + created)) {
            List<JsonNode> events = watch.nextEvents(2);
            assertEquals("MODIFIED", type(events.get(0)));
            assertEquals(updated, revision(events.get(0)));
            assertEquals("ADDED", type(events.get(1)));
            assertEquals(added, revision(events.get(1)));
            assertNull(watch.next(QUIET), "nothing more happened");
        }
    }

    @Test
    void watchTakesGoBooleansAndEveryCollectionPath() {
        String ns = newNamespace("watch-paths");
        long from = currentRevision();
        createOk(configMaps(ns), configMap("a", ""));
        createOk(configMaps(ns), configMap("b", ""));
        for (String yes : List.of("1", "t", "T", "true", "True", "TRUE")) {
            try (WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=" + yes + "&resourceVersion="
                    + from)) {
                assertEquals("a", name(watch.next()), "watch=" + yes);
            }
        }
        given().get(configMaps(ns) + "?watch=false").then().statusCode(200).body("kind", org.hamcrest.Matchers
                .equalTo("ConfigMapList"));
        given().get(configMaps(ns) + "?watch=maybe").then().statusCode(400).body("reason",
                org.hamcrest.Matchers.equalTo("BadRequest"));

        try (WatchConnection all = WatchConnection.open("/api/v1/configmaps?watch=true&resourceVersion=" + from);
                WatchConnection legacy = WatchConnection.open("/api/v1/watch/namespaces/" + ns
                        + "/configmaps?resourceVersion="
                        + from);
                WatchConnection one = WatchConnection.open("/api/v1/watch/namespaces/" + ns
                        + "/configmaps/b?resourceVersion="
                        + from);
                WatchConnection namespaces = WatchConnection.open("/api/v1/watch/namespaces?resourceVersion="
                        + (from - 1))) {
            assertEquals(List.of("a", "b"), all.nextEvents(2).stream().map(WatchConnection::name).toList());
            assertEquals(List.of("a", "b"), legacy.nextEvents(2).stream().map(WatchConnection::name).toList());
            assertEquals("b", name(one.next()), "a legacy watch of one object sees only that object");
            assertNull(one.next(QUIET));
            assertEquals(ns, name(namespaces.next()), "cluster-scoped types are watched too");
        }
    }

    @Test
    void aCompactedResourceVersionGetsOneErrorEventWith410ThenTheStreamEnds() {
        String ns = newNamespace("watch-expired");
        long old = currentRevision();
        createOk(configMaps(ns), configMap("a", ""));
        createOk(configMaps(ns), configMap("b", ""));
        history.compactTo(store.currentRevision(), 1000);
        try (WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion=" + old)) {
            assertEquals(200, watch.status(), "a watch reports expiry in the stream, not as an HTTP status");
            JsonNode error = watch.next();
            assertEquals("ERROR", type(error));
            JsonNode status = error.path("object");
            assertEquals("Status", status.path("kind").asText());
            assertEquals(410, status.path("code").asInt());
            assertEquals("Expired", status.path("reason").asText());
            assertEquals("too old resource version: " + old + " (" + store.oldestRevision() + ")",
                    status.path("message").asText());
            assertTrue(watch.endsWithin(Duration.ofSeconds(5)));
        }
    }

    @Test
    void objectsEnterAndLeaveASelectorsWatchAsAddedAndDeleted() {
        String ns = newNamespace("watch-selector");
        long from = currentRevision();
        try (WatchConnection watch = WatchConnection.open(configMaps(ns)
                + "?watch=true&labelSelector=tier%3Dweb&resourceVersion="
                + from)) {
            createOk(configMaps(ns), labelled("a", "{\"tier\":\"web\"}"));
            assertEquals("ADDED a", describe(watch.next()));

            createOk(configMaps(ns), labelled("b", "{\"tier\":\"db\"}"));
            put(ns, "b", labelled("b", "{\"tier\":\"web\"}"));
            assertEquals("ADDED b", describe(watch.next()), "b started to match");

            long left = put(ns, "a", labelled("a", "{\"tier\":\"db\"}"));
            JsonNode deleted = watch.next();
            assertEquals("DELETED a", describe(deleted), "a stopped matching");
            assertEquals("web", deleted.path("object").path("metadata").path("labels").path("tier").asText(),
                    "it carries the state that matched");
            assertEquals(left, revision(deleted), "at the resourceVersion of the change");

            put(ns, "a", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"labels\":"
                    + "{\"tier\":\"db\"}},\"data\":{\"k\":\"other\"}}");
            put(ns, "b", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\",\"labels\":"
                    + "{\"tier\":\"web\"}},\"data\":{\"k\":\"other\"}}");
            assertEquals("MODIFIED b", describe(watch.next()), "a change outside the selection is not seen");

            given().delete(configMaps(ns) + "/b").then().statusCode(200);
            assertEquals("DELETED b", describe(watch.next()));
            assertNull(watch.next(QUIET));
        }
    }

    @Test
    void aWatchOfOneObjectByNameSeesItsObjectAloneAndBookmarksPastTheOthers() {
        String ns = newNamespace("watch-one");
        String elsewhere = newNamespace("watch-one-other");
        long from = currentRevision();
        try (WatchConnection byField = WatchConnection.open(configMaps(ns) + "?watch=true&allowWatchBookmarks=true"
                + "&fieldSelector=metadata.name%3Dmine&resourceVersion=" + from);
                WatchConnection byPath = WatchConnection.open("/api/v1/watch/namespaces/" + ns + "/configmaps/mine"
                        + "?resourceVersion=" + from);
                WatchConnection otherNamespace = WatchConnection.open(configMaps(elsewhere)
                        + "?watch=true&fieldSelector=metadata.name%3Dmine&resourceVersion=" + from)) {
            createOk(configMaps(ns), configMap("other", ""));
            createOk(configMaps(ns), configMap("mine", ""));
            put(ns, "other", configMap("other", "\"data\":{\"k\":\"v\"}"));
            put(ns, "mine", configMap("mine", "\"data\":{\"k\":\"v\"}"));
            given().delete(configMaps(ns) + "/mine").then().statusCode(200);
            long gone = put(ns, "other", configMap("other", "\"data\":{\"k\":\"w\"}"));
            assertEquals(List.of("ADDED mine", "MODIFIED mine", "DELETED mine"),
                    byField.nextEvents(3).stream().map(WatchProtocolTest::describe).toList());
            // nothing of its own after that: its bookmarks pass the other objects' writes, never offered to it
            bookmarkAtLeast(byField, gone);
            // what comes after the other objects' writes shows that none of them came before it
            createOk(configMaps(elsewhere), configMap("mine", ""));
            createOk(configMaps(ns), configMap("mine", ""));
            assertEquals("ADDED mine", describe(byField.nextEvents(1).get(0)));
            assertEquals(List.of("ADDED mine", "MODIFIED mine", "DELETED mine", "ADDED mine"),
                    byPath.nextEvents(4).stream().map(WatchProtocolTest::describe).toList());
            JsonNode first = otherNamespace.next();
            assertEquals("ADDED mine", describe(first));
            assertEquals(elsewhere, first.path("object").path("metadata").path("namespace").asText(),
                    "an object of that name in another namespace is another object");
        }
        // and of a cluster-scoped type: the first event is the one it names, though another namespace came first
        String name = "watch-one-ns-" + System.nanoTime() % 100000;
        try (WatchConnection namespace = WatchConnection.open("/api/v1/namespaces?watch=true&fieldSelector="
                + "metadata.name%3D" + name + "&resourceVersion=" + currentRevision())) {
            newNamespace("watch-one-ns-other");
            given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"" + name + "\"}}")
                    .post("/api/v1/namespaces").then().statusCode(201);
            assertEquals("ADDED " + name, describe(namespace.next()));
        }
    }

    /**
     * The first bookmark at {@code revision} or later; an earlier one may have been sent before the loop had fanned
     * out that revision. Any other event fails.
     */
    private static JsonNode bookmarkAtLeast(WatchConnection watch, long revision) {
        for (int i = 0; i < 10; i++) {
            JsonNode event = watch.next();
            assertEquals("BOOKMARK", type(event), "nothing but bookmarks after its events: " + event);
            if (revision(event) >= revision) {
                return event;
            }
        }
        throw new AssertionError("no bookmark reached " + revision);
    }

    @Test
    void bookmarksCarryOnlyAResourceVersionAndComeOnlyWhenAllowed() {
        String ns = newNamespace("watch-bookmarks");
        long from = currentRevision();
        try (WatchConnection bookmarked = WatchConnection.open(configMaps(ns) + "?watch=true&allowWatchBookmarks=true"
                + "&resourceVersion=" + from);
                WatchConnection plain = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion=" + from)) {
            long written = revisionOf(createOk(configMaps(ns), configMap("a", "")));
            assertEquals("ADDED", type(bookmarked.next()));
            JsonNode bookmark = bookmarked.next(Duration.ofSeconds(5));
            assertEquals("BOOKMARK", type(bookmark));
            JsonNode object = bookmark.path("object");
            assertEquals("ConfigMap", object.path("kind").asText());
            assertEquals("v1", object.path("apiVersion").asText());
            assertEquals(List.of("resourceVersion"), fieldNames(object.path("metadata")));
            assertTrue(revision(bookmark) >= written, "a bookmark never goes back before delivered events");

            assertEquals("ADDED", type(plain.next()));
            assertNull(plain.next(Duration.ofMillis(2500)), "no bookmarks unless the client allows them");
        }
    }

    @Test
    void aStreamingListSendsTheStateThenABookmarkThatEndsTheInitialEvents() {
        String ns = newNamespace("watch-list");
        createOk(configMaps(ns), configMap("a", ""));
        createOk(configMaps(ns), configMap("b", ""));
        createOk(configMaps(ns), configMap("c", ""));
        long listed = currentRevision();
        try (WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=true&sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=" + listed)) {
            assertEquals(List.of("ADDED a", "ADDED b", "ADDED c"),
                    List.of(describe(watch.next()), describe(watch.next()), describe(watch.next())));
            JsonNode end = watch.next();
            assertEquals("BOOKMARK", type(end));
            assertEquals("true", end.path("object").path("metadata").path("annotations")
                    .path("k8s.io/initial-events-end").asText());
            long snapshot = revision(end);
            assertTrue(snapshot >= listed, "the snapshot is not older than the requested resourceVersion");

            long updated = put(ns, "a", configMap("a", "\"data\":{\"k\":\"2\"}"));
            JsonNode next = watch.next();
            while (type(next).equals("BOOKMARK")) {
                next = watch.next();
            }
            assertEquals("MODIFIED a", describe(next));
            assertEquals(updated, revision(next));
        }
    }

    @Test
    void invalidWatchOptionsAre400WithAStatus() {
        String ns = newNamespace("watch-invalid");
        for (String query : List.of(
                "watch=true&sendInitialEvents=true",
                "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
                "watch=true&sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1",
                "watch=true&resourceVersionMatch=NotOlderThan&resourceVersion=1",
                "watch=true&resourceVersionMatch=Sometimes&sendInitialEvents=true",
                "watch=true&timeoutSeconds=-1",
                "watch=true&timeoutSeconds=soon",
                "watch=true&resourceVersion=abc",
                "watch=true&labelSelector=a%20in%20(",
                "watch=true&allowWatchBookmarks=maybe",
                "sendInitialEvents=true")) {
            given().get(configMaps(ns) + "?" + query).then().statusCode(400)
                    .contentType(ContentType.JSON)
                    .body("kind", org.hamcrest.Matchers.equalTo("Status"))
                    .body("reason", org.hamcrest.Matchers.equalTo("BadRequest"));
        }
        for (String accept : List.of("text/html", "application/json;as=Table;v=v3;g=meta.k8s.io")) {
            given().accept(accept).get(configMaps(ns) + "?watch=true")
                    .then().statusCode(406).body("reason", org.hamcrest.Matchers.equalTo("NotAcceptable"));
        }
        try (WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=true&resourceVersion="
                + currentRevision(),
                "Accept", "application/vnd.kubernetes.protobuf;q=0.5,application/json")) {
            assertEquals(200, watch.status());
            assertEquals("application/json", watch.header("content-type"), "the client prefers JSON");
        }
        given().get("/api/v1/namespaces/" + ns + "/widgets?watch=true")
                .then().statusCode(404).body("kind", org.hamcrest.Matchers.equalTo("Status"));
    }

    @Test
    void timeoutSecondsEndsTheStreamCleanlyAfterALastBookmark() {
        String ns = newNamespace("watch-timeout");
        long started = System.nanoTime();
        try (WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=true&timeoutSeconds=1"
                + "&allowWatchBookmarks=true&resourceVersion=" + currentRevision())) {
            JsonNode last = null;
            for (JsonNode event = watch.next(Duration.ofSeconds(5)); event != null;
                    event = watch.next(Duration.ofSeconds(5))) {
                last = event;
            }
            assertTrue(watch.endsWithin(Duration.ofSeconds(1)), "the server ended the stream");
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMillis >= 900 && tookMillis < 5000, "it ended after about a second: " + tookMillis);
            assertEquals("BOOKMARK", last == null ? null : type(last), "so the client resumes without replay");
        }
    }

    @Test
    void aWatchForAResourceVersionNotReachedYetWaitsThenAnswers504() {
        String ns = newNamespace("watch-future");
        long future = currentRevision() + 1000;
        given().get(configMaps(ns) + "?watch=true&resourceVersion=" + future).then().statusCode(504)
                .body("reason", org.hamcrest.Matchers.equalTo("Timeout"))
                .body("message", org.hamcrest.Matchers.startsWith("Too large resource version: " + future));
    }

    private static long put(String ns, String name, String body) {
        return revisionOf(given().contentType(ContentType.JSON).body(body).put(configMaps(ns) + "/" + name));
    }

    private static long revisionOf(io.restassured.response.Response response) {
        response.then().statusCode(org.hamcrest.Matchers.either(org.hamcrest.Matchers.is(200))
                .or(org.hamcrest.Matchers.is(201)));
        return Long.parseLong(response.path("metadata.resourceVersion"));
    }

    private static String describe(JsonNode event) {
        return type(event) + " " + name(event);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void kubectlGetWatchReceivesEachChangeAsAOneRowTable() {
        String ns = newNamespace("watch-table");
        createOk(configMaps(ns), configMap("a", "\"data\":{\"x\":\"1\"}"));
        String kubectl = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
                + "g=meta.k8s.io,application/json";
        try (WatchConnection watch = WatchConnection.open(configMaps(ns) + "?watch=true", "Accept", kubectl)) {
            assertEquals("application/json;as=Table;v=v1;g=meta.k8s.io", watch.header("content-type"));
            JsonNode initial = watch.next();
            assertEquals("ADDED", type(initial));
            JsonNode table = initial.path("object");
            assertEquals("Table", table.path("kind").asText());
            assertEquals("Name", table.path("columnDefinitions").path(0).path("name").asText());
            assertEquals("a", table.path("rows").path(0).path("cells").path(0).asText());
            assertEquals(1, table.path("rows").path(0).path("cells").path(1).asInt(), "one data entry");
            assertEquals("PartialObjectMetadata", table.path("rows").path(0).path("object").path("kind").asText());

            long deletedAt = currentRevision() + 1;
            given().delete(configMaps(ns) + "/a").then().statusCode(200);
            JsonNode deleted = watch.next();
            assertEquals("DELETED", type(deleted));
            assertEquals(Long.toString(deletedAt), deleted.path("object").path("metadata").path("resourceVersion")
                    .asText());
            assertEquals("a", deleted.path("object").path("rows").path(0).path("cells").path(0).asText());
        }
    }
}
