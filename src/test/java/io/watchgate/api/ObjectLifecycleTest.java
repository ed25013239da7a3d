package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/** create, get, update, patch and delete, with the metadata the server owns. */
@QuarkusTest
class ObjectLifecycleTest {

    @Test
    void createAnswers201WithServerSetMetadataAndKeepsTheClientsFieldsOfTheType() {
        String ns = newNamespace("create");
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"app\","
                + "\"uid\":\"forged\",\"creationTimestamp\":\"2000-01-01T00:00:00Z\",\"generation\":42,"
                + "\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"decimal\":1.10,"
                + "\"big\":12345678901234567890,\"list\":[1,null,\"x\"]}}]},\"data\":{\"k\":\"v\"},\"custom\":true}";
        Response created = createOk(configMaps(ns), body);

        created.then()
                .contentType(ContentType.JSON)
                .body("kind", equalTo("ConfigMap"))
                .body("apiVersion", equalTo("v1"))
                .body("metadata.namespace", equalTo(ns))
                .body("metadata.uid", matchesPattern("[0-9a-f-]{36}"))
                .body("metadata.creationTimestamp", matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"))
                .body("metadata.creationTimestamp", not(equalTo("2000-01-01T00:00:00Z")))
                .body("metadata.generation", equalTo(1))
                .body("metadata.resourceVersion", matchesPattern("\\d+"));
        String raw = created.asString();
        // managedFields that do not decode (this entry has no operation) are ignored, as in Kubernetes: the
        // creator's entry stands, named by its User-Agent
        created.then().body("metadata.managedFields", hasSize(1))
                .body("metadata.managedFields[0].manager", equalTo("Apache-HttpClient"))
                .body("metadata.managedFields[0].fieldsV1", equalTo(java.util.Map.of("f:data",
                        java.util.Map.of(".", java.util.Map.of(), "f:k", java.util.Map.of()))));
        // a field the type does not have is dropped, as in Kubernetes
        assertTrue(!raw.contains("\"custom\""), raw);

        given().get(configMaps(ns) + "/app").then().statusCode(200)
                .contentType(ContentType.JSON)
                .body("metadata.uid", equalTo(created.path("metadata.uid")))
                .body("metadata.resourceVersion", equalTo(created.path("metadata.resourceVersion")));
    }

    @Test
    void generateNameAddsFiveRandomCharacters() {
        String ns = newNamespace("generate");
        String body = "{\"metadata\":{\"generateName\":\"job-\"}}";
        String first = createOk(configMaps(ns), body).path("metadata.name");
        String second = createOk(configMaps(ns), body).path("metadata.name");

        assertTrue(first.matches("job-[bcdfghjklmnpqrstvwxz2456789]{5}"), first);
        assertNotEquals(first, second);
    }

    @Test
    void updateReplacesTheObjectAndBumpsGenerationOnlyForNonMetadataChanges() {
        String ns = newNamespace("update");
        Response created = createOk(configMaps(ns), configMap("app", "\"data\":{\"k\":\"1\"}"));
        String uid = created.path("metadata.uid");

        Response relabelled = given().contentType(ContentType.JSON)
                .body("{\"metadata\":{\"name\":\"app\",\"labels\":{\"a\":\"b\"},\"generation\":7,"
                        + "\"creationTimestamp\":\"2000-01-01T00:00:00Z\"},\"data\":{\"k\":\"1\"}}")
                .put(configMaps(ns) + "/app");
        relabelled.then().statusCode(200)
                .body("metadata.labels.a", equalTo("b"))
                .body("metadata.uid", equalTo(uid))
                .body("metadata.generation", equalTo(1))
                .body("metadata.creationTimestamp", equalTo(created.path("metadata.creationTimestamp")));
        assertTrue(revision(relabelled) > revision(created));

        given().contentType(ContentType.JSON)
                .body("{\"metadata\":{\"name\":\"app\"},\"data\":{\"k\":\"2\"}}")
                .put(configMaps(ns) + "/app")
                .then().statusCode(200)
                .body("data.k", equalTo("2"))
                .body("metadata.labels", nullValue())
                .body("metadata.generation", equalTo(2));
    }

    @Test
    void updateWithAStaleResourceVersionConflicts() {
        String ns = newNamespace("conflict");
        String rv = createOk(configMaps(ns), configMap("app", "")).path("metadata.resourceVersion");
        given().contentType(ContentType.JSON)
                .body("{\"metadata\":{\"name\":\"app\",\"resourceVersion\":\"" + rv + "\"},\"data\":{\"k\":\"1\"}}")
                .put(configMaps(ns) + "/app").then().statusCode(200);

        given().contentType(ContentType.JSON)
                .body("{\"metadata\":{\"name\":\"app\",\"resourceVersion\":\"" + rv + "\"},\"data\":{\"k\":\"2\"}}")
                .put(configMaps(ns) + "/app")
                .then().statusCode(409)
                .body("kind", equalTo("Status"))
                .body("reason", equalTo("Conflict"))
                .body("message", equalTo("Operation cannot be fulfilled on configmaps \"app\": the object has been "
                        + "modified; please apply your changes to the latest version and try again"))
                .body("details.name", equalTo("app"))
                .body("details.kind", equalTo("configmaps"));
        given().get(configMaps(ns) + "/app").then().body("data.k", equalTo("1"));
    }

    @Test
    void anUnchangedUpdateTakesNoRevision() {
        String ns = newNamespace("noop");
        Response created = createOk(configMaps(ns), configMap("app", "\"data\":{\"k\":\"1\"}"));
        given().contentType(ContentType.JSON)
                .body(configMap("app", "\"data\":{\"k\":\"1\"}"))
                .put(configMaps(ns) + "/app")
                .then().statusCode(200)
                .body("metadata.resourceVersion", equalTo(created.path("metadata.resourceVersion")));
    }

    @Test
    void mergePatchJsonPatchAndStrategicMergePatch() {
        String ns = newNamespace("patch");
        createOk(configMaps(ns), configMap("app", "\"data\":{\"a\":\"1\",\"b\":\"2\"}"));

        given().contentType("application/merge-patch+json").body("{\"data\":{\"a\":null,\"c\":\"3\"}}")
                .patch(configMaps(ns) + "/app")
                .then().statusCode(200).body("data.a", nullValue()).body("data.c", equalTo("3"));

        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"test\",\"path\":\"/data/b\",\"value\":\"2\"},"
                        + "{\"op\":\"replace\",\"path\":\"/data/b\",\"value\":\"20\"}]")
                .patch(configMaps(ns) + "/app")
                .then().statusCode(200).body("data.b", equalTo("20"));

        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"test\",\"path\":\"/data/b\",\"value\":\"2\"}]")
                .patch(configMaps(ns) + "/app")
                .then().statusCode(422).body("kind", equalTo("Status")).body("reason", equalTo("Invalid"));

        given().contentType("application/strategic-merge-patch+json")
                .body("{\"metadata\":{\"labels\":{\"x\":\"y\"}},\"data\":{\"d\":\"4\"}}")
                .patch(configMaps(ns) + "/app")
                .then().statusCode(200)
                .body("metadata.labels.x", equalTo("y"))
                .body("data.b", equalTo("20"))
                .body("data.d", equalTo("4"));
    }

    @Test
    void strategicMergePatchOfAPodMergesContainersByName() {
        String ns = newNamespace("pod");
        createOk("/api/v1/namespaces/" + ns + "/pods", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
                + "\"metadata\":{\"name\":\"web\"},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"app:1\"},"
                + "{\"name\":\"sidecar\",\"image\":\"proxy:1\"}]}}");

        given().contentType("application/strategic-merge-patch+json")
                .body("{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"app:2\"}]}}")
                .patch("/api/v1/namespaces/" + ns + "/pods/web")
                .then().statusCode(200)
                .body("spec.containers", hasSize(2))
                .body("spec.containers[0].image", equalTo("app:2"))
                .body("spec.containers[1].image", equalTo("proxy:1"))
                .body("metadata.generation", equalTo(2));
    }

    @Test
    void aPatchCarryingAStaleResourceVersionConflicts() {
        String ns = newNamespace("patch-rv");
        String rv = createOk(configMaps(ns), configMap("app", "")).path("metadata.resourceVersion");
        given().contentType("application/merge-patch+json").body("{\"data\":{\"a\":\"1\"}}")
                .patch(configMaps(ns) + "/app").then().statusCode(200);

        given().contentType("application/merge-patch+json")
                .body("{\"metadata\":{\"resourceVersion\":\"" + rv + "\"},\"data\":{\"a\":\"2\"}}")
                .patch(configMaps(ns) + "/app")
                .then().statusCode(409).body("reason", equalTo("Conflict"));
    }

    @Test
    void deleteReturnsTheDeletedObjectAtTheDeletesRevision() {
        String ns = newNamespace("delete");
        Response created = createOk(configMaps(ns), configMap("app", "\"data\":{\"k\":\"v\"}"));

        Response deleted = given().delete(configMaps(ns) + "/app");
        deleted.then().statusCode(200)
                .contentType(ContentType.JSON)
                .body("kind", equalTo("ConfigMap"))
                .body("data.k", equalTo("v"));
        assertTrue(revision(deleted) > revision(created));

        given().get(configMaps(ns) + "/app").then().statusCode(404)
                .body("reason", equalTo("NotFound"))
                .body("message", equalTo("configmaps \"app\" not found"));
        given().delete(configMaps(ns) + "/app").then().statusCode(404);
    }

    @Test
    void deletePreconditionsAreChecked() {
        String ns = newNamespace("precondition");
        createOk(configMaps(ns), configMap("app", ""));
        given().contentType(ContentType.JSON)
                .body("{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"preconditions\":{\"uid\":\"other\"}}")
                .delete(configMaps(ns) + "/app")
                .then().statusCode(409).body("reason", equalTo("Conflict"));
        given().get(configMaps(ns) + "/app").then().statusCode(200);
    }

    @Test
    void anObjectWithFinalizersIsOnlyMarkedUntilTheLastFinalizerIsRemoved() {
        String ns = newNamespace("finalizers");
        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]}}");

        given().delete(configMaps(ns) + "/held").then().statusCode(200)
                .body("metadata.deletionTimestamp", notNullValue());
        given().get(configMaps(ns) + "/held").then().statusCode(200)
                .body("metadata.deletionTimestamp", notNullValue());

        given().contentType("application/merge-patch+json").body("{\"metadata\":{\"finalizers\":null}}")
                .patch(configMaps(ns) + "/held").then().statusCode(200);
        given().get(configMaps(ns) + "/held").then().statusCode(404);
    }

    @Test
    void deleteCollectionHonoursSelectors() {
        String ns = newNamespace("deletecollection");
        createOk(configMaps(ns), Api.labelled("a", "{\"app\":\"web\"}"));
        createOk(configMaps(ns), Api.labelled("b", "{\"app\":\"web\"}"));
        createOk(configMaps(ns), Api.labelled("c", "{\"app\":\"db\"}"));

        given().queryParam("labelSelector", "app=web").delete(configMaps(ns)).then().statusCode(200)
                .body("kind", equalTo("ConfigMapList"))
                .body("items.metadata.name", equalTo(java.util.List.of("a", "b")));
        given().get(configMaps(ns)).then().body("items.metadata.name", equalTo(java.util.List.of("c")));
    }

    @Test
    void dryRunValidatesEverythingAndStoresNothing() {
        String ns = newNamespace("dryrun");
        long before = Api.currentRevision();
        given().contentType(ContentType.JSON).body(configMap("app", "")).post(configMaps(ns) + "?dryRun=All")
                .then().statusCode(201).body("metadata.name", equalTo("app"));
        given().contentType(ContentType.JSON).body(configMap("Bad_Name", "")).post(configMaps(ns) + "?dryRun=All")
                .then().statusCode(422);
        assertEquals(before, Api.currentRevision());
        given().get(configMaps(ns) + "/app").then().statusCode(404);

        createOk(configMaps(ns), configMap("app", "\"data\":{\"k\":\"1\"}"));
        long afterCreate = Api.currentRevision();
        given().contentType(ContentType.JSON).body(configMap("app", "\"data\":{\"k\":\"2\"}"))
                .put(configMaps(ns) + "/app?dryRun=All").then().statusCode(200).body("data.k", equalTo("2"));
        given().contentType("application/merge-patch+json").body("{\"data\":{\"k\":\"3\"}}")
                .patch(configMaps(ns) + "/app?dryRun=All").then().statusCode(200).body("data.k", equalTo("3"));
        given().delete(configMaps(ns) + "/app?dryRun=All").then().statusCode(200);
        assertEquals(afterCreate, Api.currentRevision());
        given().get(configMaps(ns) + "/app").then().statusCode(200).body("data.k", equalTo("1"));
    }

    @Test
    void clusterScopedNamespacesLiveUnderApiV1() {
        given().get("/api/v1/namespaces/default").then().statusCode(200)
                .body("kind", equalTo("Namespace"))
                .body("status.phase", equalTo("Active"))
                .body("metadata.namespace", nullValue());
        given().get("/api/v1/configmaps").then().statusCode(200).body("kind", equalTo("ConfigMapList"));
        given().get("/api/v1/namespaces/default/namespaces").then().statusCode(404);
    }

    @Test
    void creatingIntoAMissingNamespaceIsNotFound() {
        long before = Api.currentRevision();
        Api.create(configMaps("no-such-namespace"), configMap("app", "")).then().statusCode(404)
                .body("reason", equalTo("NotFound"))
                .body("message", equalTo("namespaces \"no-such-namespace\" not found"));
        assertEquals(before, Api.currentRevision());
    }

    @Test
    void deletingANamespaceDeletesEverythingInItOneRevisionEach() {
        String ns = newNamespace("cascade");
        createOk(configMaps(ns), configMap("a", ""));
        createOk(configMaps(ns), configMap("b", ""));
        createOk("/api/v1/namespaces/" + ns + "/secrets", "{\"metadata\":{\"name\":\"s\"},\"data\":{\"k\":\"dg==\"}}");
        long before = Api.currentRevision();

        given().delete("/api/v1/namespaces/" + ns).then().statusCode(200).body("kind", equalTo("Namespace"));

        given().get("/api/v1/namespaces/" + ns).then().statusCode(404);
        given().get(configMaps(ns)).then().body("items", hasSize(0));
        // Terminating, then three objects, then the namespace itself
        assertEquals(before + 5, Api.currentRevision());
    }

    @Test
    void aTerminatingNamespaceRefusesNewContentUntilItsLastObjectGoes() {
        String ns = newNamespace("terminating");
        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]}}");

        given().delete("/api/v1/namespaces/" + ns).then().statusCode(200)
                .body("status.phase", equalTo("Terminating"));
        Api.create(configMaps(ns), configMap("late", "")).then().statusCode(403)
                .body("reason", equalTo("Forbidden"))
                .body("message", startsWith("configmaps \"late\" is forbidden: unable to create new content"));

        given().contentType("application/merge-patch+json").body("{\"metadata\":{\"finalizers\":[]}}")
                .patch(configMaps(ns) + "/held").then().statusCode(200);
        given().get("/api/v1/namespaces/" + ns).then().statusCode(404);
    }

    @Test
    void theServersOwnNamespacesDefaultAndKubeSystemCannotBeDeleted() {
        given().delete("/api/v1/namespaces/default").then().statusCode(403).body("reason", equalTo("Forbidden"));
        given().delete("/api/v1/namespaces/kube-system").then().statusCode(403).body("reason", equalTo("Forbidden"));
        given().get("/api/v1/namespaces/default").then().statusCode(200);
    }

    private static long revision(Response response) {
        return Long.parseLong(response.path("metadata.resourceVersion"));
    }

    @Test
    void secretStringDataIsFoldedIntoBase64Data() {
        String ns = newNamespace("secret");
        createOk("/api/v1/namespaces/" + ns + "/secrets",
                "{\"metadata\":{\"name\":\"creds\"},\"data\":{\"a\":\"YQ==\"},\"stringData\":{\"b\":\"hello\"}}")
                .then()
                .body("type", equalTo("Opaque"))
                .body("data.a", equalTo("YQ=="))
                .body("data.b", equalTo("aGVsbG8="))
                .body("stringData", nullValue());
    }

    @Test
    void aNamespacesStatusStaysTheServers() {
        String ns = newNamespace("status");
        given().contentType(ContentType.JSON)
                .body("{\"metadata\":{\"name\":\"" + ns + "\",\"labels\":{\"a\":\"b\"}},\"status\":{\"phase\":\"Terminating\"}}")
                .put("/api/v1/namespaces/" + ns)
                .then().statusCode(200)
                .body("metadata.labels.a", equalTo("b"))
                .body("status.phase", equalTo("Active"))
                .body("metadata.generation", equalTo(1));
    }

    /**
     * The window this guards (a create checked against an active namespace, committed after the namespace was
     * emptied) is closed by guarding each create with its namespace's revision; MemoryStoreTest pins the guard
     * itself, this checks the whole path end to end.
     */
    @Test
    void deletingANamespaceWhileClientsCreateInItLeavesNothingBehind() throws Exception {
        String ns = newNamespace("race-delete");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        java.util.List<java.util.concurrent.Future<?>> creators = new java.util.ArrayList<>();
        for (int t = 0; t < 6; t++) {
            int thread = t;
            creators.add(pool.submit(() -> {
                for (int i = 0;; i++) {
                    int code = Api.create(configMaps(ns), configMap("t" + thread + "-" + i, "")).statusCode();
                    if (code != 201) {
                        assertTrue(code == 403 || code == 404, "creates end with 403 or 404, got " + code);
                        return null;
                    }
                    created.incrementAndGet();
                }
            }));
        }
        while (created.get() < 30) {
            Thread.onSpinWait();
        }
        given().delete("/api/v1/namespaces/" + ns).then().statusCode(200);
        for (java.util.concurrent.Future<?> creator : creators) {
            creator.get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        pool.shutdown();

        given().get("/api/v1/namespaces/" + ns).then().statusCode(404);
        given().get(configMaps(ns)).then().statusCode(200).body("items", hasSize(0));
    }
}
