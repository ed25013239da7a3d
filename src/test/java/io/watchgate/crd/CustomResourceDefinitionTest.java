package io.watchgate.crd;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Users add types with CustomResourceDefinitions: served at once, like any other type, and gone with them. */
@QuarkusTest
class CustomResourceDefinitionTest {

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

    private static String definition(String group, String scope, String versions) {
        return "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"metadata\":"
                + "{\"name\":\"gadgets." + group + "\"},\"spec\":{\"group\":\"" + group + "\",\"scope\":\"" + scope
                + "\",\"names\":{\"plural\":\"gadgets\",\"kind\":\"Gadget\",\"shortNames\":[\"gd\"]},\"versions\":"
                + versions + "}}";
    }

    private static final String V1 = "[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
            + "{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}}}]";

    private static String gadget(String group, String name) {
        return "{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":{\"size\":3}}";
    }

    @Test
    void aNewDefinitionIsEstablishedAndServedAtOnce() {
        String group = "served.crd.test";
        given().contentType(ContentType.JSON).body(definition(group, "Namespaced", V1)).post(CRDS).then()
                .statusCode(201)
                .body("status.conditions.find { it.type == 'Established' }.status", equalTo("True"))
                .body("status.conditions.find { it.type == 'NamesAccepted' }.status", equalTo("True"))
                .body("status.acceptedNames.kind", equalTo("Gadget"))
                .body("status.acceptedNames.singular", equalTo("gadget"))
                .body("status.acceptedNames.listKind", equalTo("GadgetList"))
                .body("status.storedVersions", contains("v1"));
        given().get("/apis/" + group + "/v1").then().statusCode(200)
                .body("resources[0].name", equalTo("gadgets"))
                .body("resources[0].shortNames", contains("gd"));
        given().get("/apis").then().body("groups.name", hasItem(group));

        String ns = newNamespace("gadgets");
        String gadgets = "/apis/" + group + "/v1/namespaces/" + ns + "/gadgets";
        given().contentType(ContentType.JSON).body(gadget(group, "g1")).post(gadgets).then().statusCode(201)
                .body("spec.size", equalTo(3));
        given().get(gadgets).then().statusCode(200).body("kind", equalTo("GadgetList")).body("items.metadata.name",
                contains("g1"));
        given().contentType("application/strategic-merge-patch+json").body("{}").patch(gadgets + "/g1").then()
                .statusCode(415);
        given().get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets." + group).then()
                .statusCode(200).body("spec.group", equalTo(group));
    }

    @Test
    void aClusterScopedDefinitionServesClusterScopedObjects() {
        String group = "cluster.crd.test";
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", V1)).post(CRDS).then().statusCode(201);
        given().contentType(ContentType.JSON).body(gadget(group, "c1")).post("/apis/" + group + "/v1/gadgets").then()
                .statusCode(201);
        given().get("/apis/" + group + "/v1/gadgets/c1").then().statusCode(200);
        given().get("/apis/" + group + "/v1/namespaces/default/gadgets").then().statusCode(404);
    }

    @Test
    void anInvalidDefinitionIs422AndStoresNothing() {
        String wrongName = definition("invalid.crd.test", "Namespaced", V1).replace("gadgets.invalid.crd.test",
                "other.invalid.crd.test");
        given().contentType(ContentType.JSON).body(wrongName).post(CRDS).then().statusCode(422)
                .body("reason", equalTo("Invalid"))
                .body("details.causes.field", hasItem("metadata.name"));
        String noStorage = definition("invalid.crd.test", "Everywhere",
                "[{\"name\":\"v1\",\"served\":true,\"storage\":false}]");
        given().contentType(ContentType.JSON).body(noStorage).post(CRDS).then().statusCode(422)
                .body("details.causes.field", hasItems("spec.scope", "spec.versions"));
        given().get(CRDS + "/gadgets.invalid.crd.test").then().statusCode(404);
        given().get("/apis/invalid.crd.test/v1").then().statusCode(404);
    }

    @Test
    void anObjectIsReadWatchedAndWrittenAtTheVersionTheClientUses() throws Exception {
        String group = "convert.crd.test";
        String schema = "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
                + "\"x-kubernetes-preserve-unknown-fields\":true}}";
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", "[{\"name\":\"v1beta1\","
                + "\"served\":true,\"storage\":false," + schema + "},{\"name\":\"v1\",\"served\":true,"
                + "\"storage\":true," + schema + "}]")).post(CRDS).then().statusCode(201);
        String v1 = "/apis/" + group + "/v1/gadgets";
        String v1beta1 = "/apis/" + group + "/v1beta1/gadgets";
        String from = given().get(v1).then().statusCode(200).extract().path("metadata.resourceVersion");
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<java.io.InputStream> watchV1 = client.sendAsync(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + RestAssured.port + v1 + "?watch=true&resourceVersion=" + from)).build(),
                HttpResponse.BodyHandlers.ofInputStream()).get(10, TimeUnit.SECONDS);
        HttpResponse<java.io.InputStream> watchBeta = client.sendAsync(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + RestAssured.port + v1beta1 + "?watch=true&resourceVersion=" + from)).build(),
                HttpResponse.BodyHandlers.ofInputStream()).get(10, TimeUnit.SECONDS);

        given().contentType(ContentType.JSON).body(gadget(group, "old").replace("/v1\"", "/v1beta1\""))
                .post(v1beta1).then().statusCode(201).body("apiVersion", equalTo(group + "/v1beta1"));
        given().get(v1 + "/old").then().statusCode(200).body("apiVersion", equalTo(group + "/v1"))
                .body("spec.size", equalTo(3));
        given().get(v1).then().statusCode(200).body("items.apiVersion", contains(group + "/v1"));
        given().get(v1beta1 + "/old").then().statusCode(200).body("apiVersion", equalTo(group + "/v1beta1"));
        // a write at one version answers at that version; objects are kept at the storage version, so a write
        // that changes nothing at another version changes nothing
        String stored = given().get(v1 + "/old").then().extract().path("metadata.resourceVersion");
        given().contentType("application/merge-patch+json").body("{}").patch(v1beta1 + "/old").then()
                .statusCode(200).body("apiVersion", equalTo(group + "/v1beta1"))
                .body("metadata.resourceVersion", equalTo(stored));
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"size\":4}}").patch(v1 + "/old")
                .then().statusCode(200).body("apiVersion", equalTo(group + "/v1"));

        try (BufferedReader v1Lines = new BufferedReader(new InputStreamReader(watchV1.body(), StandardCharsets.UTF_8));
                BufferedReader betaLines = new BufferedReader(new InputStreamReader(watchBeta.body(),
                        StandardCharsets.UTF_8))) {
            for (String expected : List.of("ADDED", "MODIFIED")) {
                String v1Event = v1Lines.readLine();
                String betaEvent = betaLines.readLine();
                assertTrue(v1Event.startsWith("{\"type\":\"" + expected + "\""), v1Event);
                assertTrue(v1Event.contains("\"apiVersion\":\"" + group + "/v1\""), v1Event);
                assertTrue(betaEvent.startsWith("{\"type\":\"" + expected + "\""), betaEvent);
                assertTrue(betaEvent.contains("\"apiVersion\":\"" + group + "/v1beta1\""), betaEvent);
            }
        }
    }

    @Test
    void versionsComeAndGoWithTheDefinition() {
        String group = "versions.crd.test";
        String created = given().contentType(ContentType.JSON).body(definition(group, "Cluster", V1)).post(CRDS)
                .then().statusCode(201).extract().path("metadata.resourceVersion");
        String twoVersions = definition(group, "Cluster", "[{\"name\":\"v1\",\"served\":false,\"storage\":false},"
                + "{\"name\":\"v2\",\"served\":true,\"storage\":true}]");
        String updated = given().contentType(ContentType.JSON).body(at(twoVersions, created))
                .put(CRDS + "/gadgets." + group).then().statusCode(200)
                .body("status.storedVersions", contains("v1", "v2")).extract().path("metadata.resourceVersion");
        given().get("/apis/" + group + "/v2/gadgets").then().statusCode(200);
        given().get("/apis/" + group + "/v1/gadgets").then().statusCode(404);
        given().contentType(ContentType.JSON).body(at(definition(group, "Namespaced", V1), updated))
                .put(CRDS + "/gadgets." + group).then().statusCode(422)
                .body("message", containsString("scope and plural name cannot be changed"));
    }

    @Test
    void aPutOfADefinitionOrOfAnObjectOfItMustNameTheResourceVersionItReplaces() {
        String group = "conditional.crd.test";
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", V1)).post(CRDS).then().statusCode(201);
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", V1)).put(CRDS + "/gadgets." + group)
                .then().statusCode(422).body("message", equalTo("customresourcedefinitions.apiextensions.k8s.io "
                        + "\"gadgets." + group + "\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be "
                        + "specified for an update"));
        String gadgets = "/apis/" + group + "/v1/gadgets";
        given().contentType(ContentType.JSON).body(gadget(group, "g")).post(gadgets).then().statusCode(201);
        given().contentType(ContentType.JSON).body(gadget(group, "g")).put(gadgets + "/g").then().statusCode(422)
                .body("message", equalTo("gadgets." + group + " \"g\" is invalid: metadata.resourceVersion: "
                        + "Invalid value: 0x0: must be specified for an update"));
        // and a PUT creates no custom resource (kube's strategy does not create on update)
        given().contentType(ContentType.JSON).body(gadget(group, "new")).put(gadgets + "/new").then().statusCode(404);
    }

    /** {@code body} naming the resourceVersion it replaces. */
    private static String at(String body, String resourceVersion) {
        return body.replaceFirst("\"metadata\":\\{", "\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\",");
    }

    @Test
    void deletingADefinitionDeletesItsObjectsEachWithAnEventThenStopsServingIt() throws Exception {
        String group = "deleted.crd.test";
        given().contentType(ContentType.JSON).body(definition(group, "Namespaced", V1)).post(CRDS).then().statusCode(201);
        String ns = newNamespace("doomed");
        String gadgets = "/apis/" + group + "/v1/namespaces/" + ns + "/gadgets";
        for (String name : List.of("a", "b")) {
            given().contentType(ContentType.JSON).body(gadget(group, name)).post(gadgets).then().statusCode(201);
        }
        String from = given().get(gadgets).then().extract().path("metadata.resourceVersion");
        HttpResponse<java.io.InputStream> watch = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + gadgets
                        + "?watch=true&resourceVersion=" + from)).build(), HttpResponse.BodyHandlers.ofInputStream())
                .get(10, TimeUnit.SECONDS);
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(watch.body(), StandardCharsets.UTF_8))) {
            given().delete(CRDS + "/gadgets." + group).then().statusCode(200);
            List<String> events = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                String line = lines.readLine();
                events.add(line.substring(9, line.indexOf('"', 9)) + " "
                        + line.replaceAll(".*\"name\":\"([^\"]+)\".*", "$1"));
            }
            assertEquals(List.of("DELETED a", "DELETED b"), events);
        }
        given().get(gadgets).then().statusCode(404);
        given().get("/apis").then().body("groups.name", not(hasItem(group)));
        given().get(CRDS + "/gadgets." + group).then().statusCode(404);
    }

    @Test
    void objectsWithFinalizersHoldADeletedDefinitionWhichRefusesNewObjectsMeanwhile() {
        String group = "held.crd.test";
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", V1)).post(CRDS).then().statusCode(201);
        String gadgets = "/apis/" + group + "/v1/gadgets";
        given().contentType(ContentType.JSON).body(gadget(group, "held").replace("\"name\":\"held\"",
                "\"name\":\"held\",\"finalizers\":[\"example.com/hold\"]")).post(gadgets).then().statusCode(201);
        given().contentType(ContentType.JSON).body(gadget(group, "free")).post(gadgets).then().statusCode(201);

        given().delete(CRDS + "/gadgets." + group).then().statusCode(200)
                .body("metadata.deletionTimestamp", notNullValue())
                .body("metadata.finalizers", contains("customresourcecleanup.apiextensions.k8s.io"))
                .body("status.conditions.find { it.type == 'Terminating' }.status", equalTo("True"));
        // the object without finalizers is gone, the other one is marked; the type is still served for them
        given().get(gadgets + "/free").then().statusCode(404);
        given().get(gadgets + "/held").then().statusCode(200).body("metadata.deletionTimestamp", notNullValue());
        given().contentType(ContentType.JSON).body(gadget(group, "late")).post(gadgets).then().statusCode(405)
                .body("reason", equalTo("MethodNotAllowed"))
                .body("message", equalTo("create not allowed while custom resource definition is terminating"));

        // the last finalizer goes: the object goes, and the definition with it
        given().contentType("application/merge-patch+json").body("{\"metadata\":{\"finalizers\":null}}")
                .patch(gadgets + "/held").then().statusCode(200);
        given().get(CRDS + "/gadgets." + group).then().statusCode(404);
        given().get(gadgets).then().statusCode(404);

        // a new definition of the same type starts empty
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", V1)).post(CRDS).then().statusCode(201)
                .body("metadata.finalizers", nullValue());
        given().get(gadgets).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void noObjectCreatedWhileItsDefinitionIsDeletedOutlivesIt() throws Exception {
        String group = "race.crd.test";
        String gadgets = "/apis/" + group + "/v1/gadgets";
        for (int round = 0; round < 5; round++) {
            given().contentType(ContentType.JSON).body(definition(group, "Cluster", V1)).post(CRDS).then()
                    .statusCode(201);
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch someCreated = new CountDownLatch(5);
            List<Integer> unexpected = new CopyOnWriteArrayList<>();
            int thisRound = round;
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                Thread thread = new Thread(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        int status = given().contentType(ContentType.JSON)
                                .body(gadget(group, "g-" + thisRound + "-" + writer + "-" + i)).post(gadgets)
                                .statusCode();
                        if (status == 201) {
                            someCreated.countDown();
                        } else if (status != 405 && status != 404) {
                            unexpected.add(status);
                        }
                    }
                });
                thread.start();
                writers.add(thread);
            }
            assertTrue(someCreated.await(30, TimeUnit.SECONDS), "creates go through before the deletion");
            given().delete(CRDS + "/gadgets." + group).then().statusCode(200);
            stop.set(true);
            for (Thread writer : writers) {
                writer.join(30_000);
            }
            assertEquals(List.of(), unexpected, "a create racing the deletion answers 201, 405 or 404");
            given().get(CRDS + "/gadgets." + group).then().statusCode(404);
        }
        // had an object slipped in after the definition listed its objects, it would be back now
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", V1)).post(CRDS).then().statusCode(201);
        given().get(gadgets).then().statusCode(200).body("items", hasSize(0));
    }

    private static final String SCHEMA = "[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":"
            + "{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\","
            + "\"required\":[\"size\"],\"properties\":{"
            + "\"size\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":10},"
            + "\"mode\":{\"type\":\"string\",\"enum\":[\"fast\",\"safe\"]},"
            + "\"code\":{\"type\":\"string\",\"pattern\":\"^[a-z]+$\",\"minLength\":2,\"maxLength\":5},"
            + "\"tags\":{\"type\":\"array\",\"maxItems\":2,\"items\":{\"type\":\"string\"}},"
            + "\"extra\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}}}}}}}]";

    @Test
    void objectsAreCheckedAgainstTheirVersionsSchemaAndPrunedToIt() {
        String group = "schema.crd.test";
        given().contentType(ContentType.JSON).body(definition(group, "Namespaced", SCHEMA)).post(CRDS).then()
                .statusCode(201);
        String ns = newNamespace("schema");
        String gadgets = "/apis/" + group + "/v1/namespaces/" + ns + "/gadgets";
        String valid = "{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"ok\"},"
                + "\"spec\":{\"size\":3,\"mode\":\"safe\",\"code\":\"abc\",\"tags\":[\"a\"],"
                + "\"unknown\":1,\"extra\":{\"anything\":{\"goes\":true}}},\"topLevelUnknown\":true}";
        given().contentType(ContentType.JSON).body(valid).post(gadgets).then().statusCode(201)
                .body("spec.size", equalTo(3))
                .body("spec", not(org.hamcrest.Matchers.hasKey("unknown")))
                .body("$", not(org.hamcrest.Matchers.hasKey("topLevelUnknown")))
                .body("spec.extra.anything.goes", equalTo(true));

        String invalid = "{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"bad\"},"
                + "\"spec\":{\"size\":\"three\",\"mode\":\"reckless\",\"code\":\"ABCDEFG\","
                + "\"tags\":[\"a\",\"b\",\"c\"]}}";
        given().contentType(ContentType.JSON).body(invalid).post(gadgets).then().statusCode(422)
                .body("reason", equalTo("Invalid"))
                .body("message", org.hamcrest.Matchers.startsWith("Gadget." + group + " \"bad\" is invalid"))
                .body("details.causes.field", hasItems("spec.size", "spec.mode", "spec.code", "spec.tags"))
                .body("details.causes.find { it.field == 'spec.size' }.message",
                        org.hamcrest.Matchers.containsString("spec.size in body must be of type integer: \"string\""))
                .body("details.causes.find { it.field == 'spec.mode' }.reason", equalTo("FieldValueNotSupported"));
        String outOfRange = invalid.replace("\"three\"", "11").replace("reckless", "fast").replace("ABCDEFG", "a")
                .replace(",\"c\"", "");
        given().contentType(ContentType.JSON).body(outOfRange).post(gadgets).then().statusCode(422)
                .body("details.causes.find { it.field == 'spec.size' }.message",
                        org.hamcrest.Matchers.containsString("should be less than or equal to 10"))
                .body("details.causes.find { it.field == 'spec.code' }.message",
                        org.hamcrest.Matchers.containsString("should be at least 2 chars long"));
        String missing = "{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"m\"},"
                + "\"spec\":{}}";
        given().contentType(ContentType.JSON).body(missing).post(gadgets).then().statusCode(422)
                .body("details.causes.find { it.field == 'spec.size' }.reason", equalTo("FieldValueRequired"));
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"size\":0}}").patch(gadgets + "/ok")
                .then().statusCode(422);
        given().get(gadgets).then().body("items.metadata.name", contains("ok"));
        given().get(gadgets + "/ok").then().body("spec.size", equalTo(3));
    }

    @Test
    void printerColumnsBecomeTableColumns() {
        String group = "columns.crd.test";
        String versions = "[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
                + "{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}},"
                + "\"additionalPrinterColumns\":["
                + "{\"name\":\"Size\",\"type\":\"integer\",\"jsonPath\":\".spec.size\"},"
                + "{\"name\":\"Ready\",\"type\":\"string\",\"jsonPath\":"
                + "\".status.conditions[?(@.type==\\\"Ready\\\")].status\"},"
                + "{\"name\":\"First\",\"type\":\"string\",\"priority\":1,\"jsonPath\":\".spec.items[0].name\"},"
                + "{\"name\":\"Age\",\"type\":\"date\",\"jsonPath\":\".metadata.creationTimestamp\"}]}]";
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", versions)).post(CRDS).then()
                .statusCode(201);
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\","
                + "\"metadata\":{\"name\":\"g\"},\"spec\":{\"size\":4,\"items\":[{\"name\":\"first\"}]},"
                + "\"status\":{\"conditions\":[{\"type\":\"Synced\",\"status\":\"False\"},"
                + "{\"type\":\"Ready\",\"status\":\"True\"}]}}").post("/apis/" + group + "/v1/gadgets").then()
                .statusCode(201);
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\","
                + "\"metadata\":{\"name\":\"h\"}}").post("/apis/" + group + "/v1/gadgets").then().statusCode(201);
        given().accept("application/json;as=Table;v=v1;g=meta.k8s.io").get("/apis/" + group + "/v1/gadgets").then()
                .statusCode(200)
                .body("columnDefinitions.name", contains("Name", "Size", "Ready", "First", "Age"))
                .body("columnDefinitions.priority", contains(0, 0, 0, 1, 0))
                .body("rows[0].cells[0..3]", contains("g", 4, "True", "first"))
                .body("rows[0].cells[4]", org.hamcrest.Matchers.matchesPattern("\\d+s"))
                .body("rows[1].cells[1..3]", contains("<none>", "<none>", "<none>"));
        String bad = versions.replace("\".spec.size\"", "\"spec.size\"");
        given().contentType(ContentType.JSON).body(definition("bad.columns.crd.test", "Cluster", bad)).post(CRDS).then()
                .statusCode(422).body("details.causes.field",
                        hasItem("spec.versions[0].additionalPrinterColumns[0].jsonPath"));
    }

    @Test
    void theStatusSubresourceAloneWritesStatus() {
        String group = "status.crd.test";
        String versions = "[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"subresources\":{\"status\":{}},"
                + "\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}}}]";
        String withCategories = definition(group, "Namespaced", versions)
                .replace("\"shortNames\":[\"gd\"]", "\"shortNames\":[\"gd\"],\"categories\":[\"all\",\"gear\"]");
        given().contentType(ContentType.JSON).body(withCategories).post(CRDS).then().statusCode(201);
        given().get("/apis/" + group + "/v1").then()
                .body("resources.name", contains("gadgets", "gadgets/status"))
                .body("resources[0].categories", contains("all", "gear"))
                .body("resources[1].verbs", contains("get", "patch", "update"));
        given().accept("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList").get("/apis").then()
                .body("items.find { it.metadata.name == '" + group + "' }.versions[0].resources[0].subresources[0]"
                        + ".subresource", equalTo("status"))
                .body("items.find { it.metadata.name == '" + group + "' }.versions[0].resources[0].categories",
                        contains("all", "gear"));

        String ns = newNamespace("status");
        String gadget = "/apis/" + group + "/v1/namespaces/" + ns + "/gadgets/g";
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\","
                + "\"metadata\":{\"name\":\"g\"},\"spec\":{\"size\":1},\"status\":{\"phase\":\"Made up\"}}")
                .post("/apis/" + group + "/v1/namespaces/" + ns + "/gadgets").then().statusCode(201)
                .body("$", not(org.hamcrest.Matchers.hasKey("status")));
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"size\":9},\"status\":{\"phase\":\"Ready\"}}")
                .patch(gadget + "/status").then().statusCode(200)
                .body("status.phase", equalTo("Ready"))
                .body("spec.size", equalTo(1))
                .body("metadata.generation", equalTo(1));
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"size\":2},\"status\":{\"phase\":\"Lost\"}}")
                .patch(gadget).then().statusCode(200)
                .body("status.phase", equalTo("Ready"))
                .body("spec.size", equalTo(2))
                .body("metadata.generation", equalTo(2));
        given().get(gadget + "/status").then().statusCode(200).body("status.phase", equalTo("Ready"));
        given().get("/api/v1/namespaces/" + ns + "/configmaps/x/status").then().statusCode(404);
    }

    @Test
    void aDefinitionsSchemaIsInOpenApiAndInFieldValidation() {
        String group = "openapi.crd.test";
        given().contentType(ContentType.JSON).body(definition(group, "Namespaced", SCHEMA)).post(CRDS).then()
                .statusCode(201);
        String url = given().get("/openapi/v3").then().statusCode(200)
                .extract().path("paths.'apis/" + group + "/v1'.serverRelativeURL");
        given().get(url).then().statusCode(200)
                .body("components.schemas.'test.crd.openapi.v1.Gadget'.properties.spec.properties.size.maximum",
                        equalTo(10))
                .body("components.schemas.'test.crd.openapi.v1.Gadget'.x-kubernetes-group-version-kind[0].kind",
                        equalTo("Gadget"));
        String ns = newNamespace("crd-fv");
        String gadgets = "/apis/" + group + "/v1/namespaces/" + ns + "/gadgets";
        String withUnknown = "{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"u\"},"
                + "\"spec\":{\"size\":3,\"sise\":4}}";
        given().contentType(ContentType.JSON).body(withUnknown).post(gadgets + "?fieldValidation=Strict").then()
                .statusCode(400).body("message", org.hamcrest.Matchers.containsString("unknown field \"spec.sise\""));
        given().contentType(ContentType.JSON).body(withUnknown).post(gadgets + "?fieldValidation=Warn").then()
                .statusCode(201).header("Warning", equalTo("299 - \"unknown field \\\"spec.sise\\\"\""))
                .body("spec", not(org.hamcrest.Matchers.hasKey("sise")));
    }

    @Test
    void patternsAreGoRegularExpressionsMatchedInLinearTime() {
        String group = "redos.crd.test";
        String versions = "[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
                + "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":"
                + "{\"name\":{\"type\":\"string\",\"pattern\":\"^(a+)+$\"}}}}}}}]";
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", versions)).post(CRDS).then()
                .statusCode(201);
        // a pattern that would compile too large is refused, as Go refuses it
        given().contentType(ContentType.JSON).body(definition("huge.crd.test", "Cluster",
                versions.replace("^(a+)+$", "((a{1000}){1000}){1000}"))).post(CRDS).then().statusCode(422);
        // catastrophic for a backtracking matcher at a few dozen characters; RE2 answers at once
        String evil = "a".repeat(100_000) + "!";
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\","
                + "\"metadata\":{\"name\":\"g\"},\"spec\":{\"name\":\"" + evil + "\"}}")
                .post("/apis/" + group + "/v1/gadgets").then().statusCode(422)
                .body("details.causes[0].field", equalTo("spec.name"))
                .body("details.causes[0].message", containsString("should match '^(a+)+$'"));
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\","
                + "\"metadata\":{\"name\":\"g\"},\"spec\":{\"name\":\"aaaa\"}}")
                .post("/apis/" + group + "/v1/gadgets").then().statusCode(201);
        // Java's lookaround and backreferences are not Go's syntax: Kubernetes refuses such a schema
        for (String javaOnly : List.of("^(?=a)a$", "^(a)\\\\1$")) {
            given().contentType(ContentType.JSON).body(definition("re2.crd.test", "Cluster",
                    versions.replace("^(a+)+$", javaOnly))).post(CRDS).then().statusCode(422)
                    .body("details.causes.field", hasItem(
                            "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[name].pattern"));
        }
    }

    @Test
    void definitionsThatWouldBreakTheServerAreRefused() {
        given().contentType(ContentType.JSON).body(definition("apiextensions.k8s.io", "Cluster", V1)
                .replace("gadgets.apiextensions.k8s.io", "gadgets.apiextensions.k8s.io")).post(CRDS).then()
                .statusCode(422).body("details.causes.field", hasItem("spec.group"));
        given().contentType(ContentType.JSON).body(definition("shape.crd.test", "Cluster",
                "[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
                        + "{\"type\":\"object\",\"properties\":\"oops\"}}}]")).post(CRDS).then()
                .statusCode(422).body("details.causes.field",
                        hasItem("spec.versions[0].schema.openAPIV3Schema.properties"));
        given().contentType(ContentType.JSON).body(definition("kind.crd.test", "Cluster", V1)
                .replace("\"kind\":\"Gadget\"", "\"kind\":\"Q\\\",\\\"x\"")).post(CRDS).then()
                .statusCode(422).body("details.causes.field", hasItem("spec.names.kind"));
        given().get("/openapi/v3").then().statusCode(200);
    }

    @Test
    void oddButValidVersionsAndPathsKeepDiscoveryAndTablesWorking() {
        String group = "odd.crd.test";
        String versions = "[{\"name\":\"v99999999999999999999\",\"served\":true,\"storage\":false},"
                + "{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
                + "{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}},"
                + "\"additionalPrinterColumns\":[{\"name\":\"Far\",\"type\":\"string\","
                + "\"jsonPath\":\".spec.a[99999999999]\"}]}]";
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", versions)).post(CRDS).then()
                .statusCode(201);
        given().get("/apis").then().statusCode(200)
                .body("groups.find { it.name == '" + group + "' }.preferredVersion.version",
                        equalTo("v99999999999999999999"));
        given().contentType(ContentType.JSON).body(gadget(group, "g")).post("/apis/" + group + "/v1/gadgets").then()
                .statusCode(201);
        given().accept("application/json;as=Table;v=v1;g=meta.k8s.io").get("/apis/" + group + "/v1/gadgets").then()
                .statusCode(200).body("rows[0].cells[1]", equalTo("<none>"));
    }

    @Test
    void aWriteOfOnlyUndeclaredFieldsChangesNothing() {
        String group = "prune.crd.test";
        given().contentType(ContentType.JSON).body(definition(group, "Cluster", SCHEMA)).post(CRDS).then()
                .statusCode(201);
        String gadgets = "/apis/" + group + "/v1/gadgets";
        String body = "{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"p\"},"
                + "\"spec\":{\"size\":3}}";
        String version = given().contentType(ContentType.JSON).body(body).post(gadgets).then().statusCode(201)
                .extract().path("metadata.resourceVersion");
        given().contentType(ContentType.JSON).body(at(body.replace("\"size\":3", "\"size\":3,\"undeclared\":1"),
                version)).put(gadgets + "/p").then().statusCode(200)
                .body("metadata.resourceVersion", equalTo(version))
                .body("metadata.generation", equalTo(1));
    }
}
