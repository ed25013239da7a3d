package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.labelled;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.core.Context;
import io.watchgate.store.CommitListener;
import io.watchgate.store.EventType;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Small creates, updates and patches are made on the event loop that took the request: nothing in them blocks, and
 * handing each to a worker thread and back cost more than the write itself. Large ones (by their body or by the
 * object they start from) are made on worker threads: parsing, validating and merging megabytes takes longer than
 * an event loop may be held. Deletions are made on worker threads:
 * a namespace's or a deletecollection lists what it deletes, which is no work for an event loop.
 */
@QuarkusTest
class WriteThreadsTest {

    @Inject
    Store store;

    @Test
    void createsUpdatesAndPatchesCommitOnTheEventLoop() {
        String ns = newNamespace("threads");
        Map<String, Boolean> onEventLoop = new ConcurrentHashMap<>();
        // the store is the application's, shared by every test: the listener leaves with this one
        try (CommitListener.Registration registration = store.addCommitListener(event -> {
            if (event.key().namespace().equals(ns)) {
                onEventLoop.put(event.type() + " " + event.object().tree().at("/data/step").asText(),
                        Context.isOnEventLoopThread());
            }
        })) {
            createOk(configMaps(ns), configMap("c", "\"data\":{\"step\":\"create\"}"));
            given().contentType(ContentType.JSON).body(configMap("c", "\"data\":{\"step\":\"update\"}"))
                    .put(configMaps(ns) + "/c").then().statusCode(200);
            given().contentType("application/merge-patch+json").body("{\"data\":{\"step\":\"patch\"}}")
                    .patch(configMaps(ns) + "/c").then().statusCode(200);
        }
        assertEquals(Map.of("ADDED create", true, "MODIFIED update", true, "MODIFIED patch", true), onEventLoop,
                "a write made on a worker thread shows false");
    }

    @Test
    void largeWritesAndSmallPatchesOfLargeObjectsCommitOnWorkerThreads() {
        String ns = newNamespace("large-threads");
        String large = "x".repeat(64 * 1024); // above watchgate.api.inline-write-bytes (32 KiB)
        Map<String, Boolean> onEventLoop = new ConcurrentHashMap<>();
        try (CommitListener.Registration registration = store.addCommitListener(event -> {
            if (event.key().namespace().equals(ns)) {
                onEventLoop.put(event.type() + " " + event.object().tree().at("/data/step").asText(),
                        Context.isOnEventLoopThread());
            }
        })) {
            createOk(configMaps(ns), configMap("c", "\"data\":{\"step\":\"create\",\"big\":\"" + large + "\"}"));
            given().contentType("application/merge-patch+json").body("{\"data\":{\"step\":\"patch\"}}")
                    .patch(configMaps(ns) + "/c").then().statusCode(200).body("data.big", is(large));
            given().contentType(ContentType.JSON)
                    .body(configMap("c", "\"data\":{\"step\":\"update\",\"big\":\"" + large + "\"}"))
                    .put(configMaps(ns) + "/c").then().statusCode(200);
            given().contentType("application/json-patch+json")
                    .body("[{\"op\":\"replace\",\"path\":\"/data/step\",\"value\":\"json-patch\"}]")
                    .patch(configMaps(ns) + "/c").then().statusCode(200);
        }
        assertEquals(Map.of("ADDED create", false, "MODIFIED patch", false, "MODIFIED update", false,
                "MODIFIED json-patch", false), onEventLoop, "a write made on the event loop shows true");
    }

    @Test
    void aSmallObjectWhosePatternsTakeLongToMatchIsWrittenOnAWorkerThread() {
        String group = "patterns.threads.test";
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
                + "\"CustomResourceDefinition\",\"metadata\":{\"name\":\"words." + group + "\"},\"spec\":{\"group\":\""
                + group + "\",\"scope\":\"Cluster\",\"names\":{\"plural\":\"words\",\"kind\":\"Word\"},"
                + "\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
                + "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":{\"text\":"
                + "{\"type\":\"string\",\"pattern\":\"[a-z]{1000}\"}}}}}}}]}}")
                .post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").then().statusCode(201);
        Map<String, Boolean> onEventLoop = new ConcurrentHashMap<>();
        try (CommitListener.Registration registration = store.addCommitListener(event -> {
            if (event.key().resource().startsWith("words")) {
                onEventLoop.put(event.key().name(), Context.isOnEventLoopThread());
            }
        })) {
            // 3,000 characters against a program of some 2,000 instructions: a 3 KB body, millions of steps
            given().contentType(ContentType.JSON).body("{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Word\","
                    + "\"metadata\":{\"name\":\"long\"},\"spec\":{\"text\":\"" + "a".repeat(3000) + "\"}}")
                    .post("/apis/" + group + "/v1/words").then().statusCode(201);
            given().contentType(ContentType.JSON).body("{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Word\","
                    + "\"metadata\":{\"name\":\"short\"},\"spec\":{\"text\":\"" + "a".repeat(1000) + "\"}}")
                    .post("/apis/" + group + "/v1/words").then().statusCode(201);
        }
        assertEquals(Map.of("long", false, "short", true), onEventLoop, "a write made on the event loop shows true");
    }

    @Test
    void yamlCreatesAndUpdatesAreReadOnWorkerThreads() {
        // YAML takes several times JSON's time to parse: a 3 MiB body would hold an event loop too long
        String ns = newNamespace("yaml-threads");
        Map<String, Boolean> onEventLoop = new ConcurrentHashMap<>();
        try (CommitListener.Registration registration = store.addCommitListener(event -> {
            if (event.key().namespace().equals(ns)) {
                onEventLoop.put(event.type() + " " + event.object().tree().at("/data/step").asText(),
                        Context.isOnEventLoopThread());
            }
        })) {
            given().contentType("application/yaml").body("metadata: {name: y}\ndata: {step: create}\n".getBytes())
                    .post(configMaps(ns)).then().statusCode(201);
            given().contentType("application/yaml").body("metadata: {name: y}\ndata: {step: update}\n".getBytes())
                    .put(configMaps(ns) + "/y").then().statusCode(200);
        }
        assertEquals(Map.of("ADDED create", false, "MODIFIED update", false), onEventLoop);
    }

    @Test
    void deletionsAndWhatFollowsThemCommitOnWorkerThreads() {
        String ns = newNamespace("delete-threads");
        Map<String, Boolean> onEventLoop = new ConcurrentHashMap<>();
        try (CommitListener.Registration registration = store.addCommitListener(event -> {
            if (event.type() == EventType.DELETED && (event.key().namespace().equals(ns)
                    || event.key().name().equals(ns))) {
                onEventLoop.put(event.key().resource() + " " + event.key().name(), Context.isOnEventLoopThread());
            }
        })) {
            for (String name : new String[] {"one", "of-many-1", "of-many-2", "in-namespace"}) {
                createOk(configMaps(ns), labelled(name, "{\"name\":\"" + name + "\"}"));
            }
            given().delete(configMaps(ns) + "/one").then().statusCode(200);
            given().queryParam("labelSelector", "name in (of-many-1,of-many-2)").delete(configMaps(ns))
                    .then().statusCode(200).body("items.metadata.name", hasItems("of-many-1", "of-many-2"));
            given().delete("/api/v1/namespaces/" + ns).then().statusCode(200);
        }
        assertEquals(Map.of("configmaps one", false, "configmaps of-many-1", false, "configmaps of-many-2", false,
                "configmaps in-namespace", false, "namespaces " + ns, false), onEventLoop,
                "a deletion made on the event loop shows true");
    }
}
