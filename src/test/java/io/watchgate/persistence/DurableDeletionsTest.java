package io.watchgate.persistence;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.labelled;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deletions in durable mode, where each write completes on the log's thread once synced: what follows one (the
 * next object of a collection, a namespace's contents, the namespace itself) goes on and is answered.
 */
@QuarkusTest
@TestProfile(Durable.class)
class DurableDeletionsTest {

    @Test
    void aCollectionIsDeletedOneRevisionPerObjectInOrder() {
        String ns = newNamespace("durable-collection");
        for (int i = 0; i < 40; i++) {
            createOk(configMaps(ns), labelled("cm-" + i, "{\"set\":\"" + (i % 2 == 0 ? "even" : "odd") + "\"}"));
        }
        List<String> versions = given().queryParam("labelSelector", "set=even").delete(configMaps(ns))
                .then().statusCode(200).extract().path("items.metadata.resourceVersion");
        assertEquals(20, versions.size());
        for (int i = 1; i < versions.size(); i++) {
            assertTrue(Long.parseLong(versions.get(i)) > Long.parseLong(versions.get(i - 1)),
                    "each deletion is a revision after the one before: " + versions);
        }
        given().get(configMaps(ns)).then().statusCode(200).body("items.size()", equalTo(20));
    }

    @Test
    void aNamespaceTakesItsContentsWithItAndGoesWhenTheLastFinalizerDoes() {
        String ns = newNamespace("durable-namespace");
        for (int i = 0; i < 30; i++) {
            createOk(configMaps(ns), labelled("cm-" + i, "{}"));
        }
        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]}}");
        given().delete("/api/v1/namespaces/" + ns).then().statusCode(200)
                .body("status.phase", equalTo("Terminating"));
        given().get(configMaps(ns)).then().statusCode(200).body("items.metadata.name", equalTo(List.of("held")));
        // the last finalizer goes: the object, then its namespace, each once the one before counts
        given().contentType("application/merge-patch+json").body("{\"metadata\":{\"finalizers\":null}}")
                .patch(configMaps(ns) + "/held").then().statusCode(200);
        given().get("/api/v1/namespaces/" + ns).then().statusCode(404);
    }
}
