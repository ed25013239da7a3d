package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.labelled;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.hasItems;
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
 * Creates, updates and patches are made on the event loop that took the request: nothing in them blocks, and
 * handing each to a worker thread and back cost more than the write itself. Deletions are made on worker threads:
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
