package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.core.Context;
import io.watchgate.store.CommitListener;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Creates, updates and patches are made on the event loop that took the request: nothing in them blocks, and
 * handing each to a worker thread and back cost more than the write itself.
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
}
