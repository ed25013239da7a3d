package io.watchgate.managedfields;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

/**
 * Server-side apply and managedFields, as kube-apiserver's field manager keeps them: who owns which field after
 * each write, when an apply conflicts, what force takes, and what a manager's abandoned fields become.
 */
@QuarkusTest
class ServerSideApplyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String APPLY = "application/apply-patch+yaml";

    private static String configMap(String name, String data) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":{"
                + data + "}}";
    }

    private static ValidatableResponse apply(String url, String manager, String body) {
        return given().contentType(APPLY).body(body.getBytes()).patch(url + "?fieldManager=" + manager).then();
    }

    private static JsonNode managedFields(ValidatableResponse response) {
        try {
            return JSON.readTree(response.extract().asString()).path("metadata").path("managedFields");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static JsonNode entryOf(JsonNode managedFields, String manager) {
        for (JsonNode entry : managedFields) {
            if (entry.path("manager").asText().equals(manager)) {
                return entry;
            }
        }
        return null;
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anApplyCreatesTheObjectAndItsManagerOwnsExactlyWhatItApplied() {
        String url = configMaps(newNamespace("ssa-create")) + "/settings";
        ValidatableResponse created = apply(url, "alice", configMap("settings", "\"a\":\"1\"")).statusCode(201);
        JsonNode entries = managedFields(created);
        assertEquals(1, entries.size());
        JsonNode entry = entries.get(0);
        assertEquals("alice", entry.path("manager").asText());
        assertEquals("Apply", entry.path("operation").asText());
        assertEquals("v1", entry.path("apiVersion").asText());
        assertEquals("FieldsV1", entry.path("fieldsType").asText());
        assertEquals(json("{\"f:data\":{\"f:a\":{}}}"), entry.path("fieldsV1"));

        String rv = created.extract().path("metadata.resourceVersion");
        String time = entry.path("time").asText();
        ValidatableResponse again = apply(url, "alice", configMap("settings", "\"a\":\"1\"")).statusCode(200)
                .body("metadata.resourceVersion", equalTo(rv));
        assertEquals(time, managedFields(again).get(0).path("time").asText());
    }

    @Test
    void aYamlConfigurationIsAppliedLikeJson() {
        String url = configMaps(newNamespace("ssa-yaml")) + "/settings";
        apply(url, "alice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"1\"\n")
                .statusCode(201).body("data.a", equalTo("1"));
    }

    @Test
    void everyWriteIsRecordedUnderItsManagerOrItsUserAgent() {
        String ns = newNamespace("ssa-update");
        ValidatableResponse created = given().contentType(ContentType.JSON).body(configMap("cm", "\"a\":\"1\""))
                .post(configMaps(ns) + "?fieldManager=kubectl-create").then().statusCode(201);
        JsonNode entry = managedFields(created).get(0);
        assertEquals("kubectl-create", entry.path("manager").asText());
        assertEquals("Update", entry.path("operation").asText());
        assertEquals(json("{\"f:data\":{\".\":{},\"f:a\":{}}}"), entry.path("fieldsV1"));

        ValidatableResponse patched = given().contentType("application/merge-patch+json")
                .header("User-Agent", "kubectl/v1.33.0 (linux/amd64) kubernetes/abc")
                .body("{\"data\":{\"b\":\"2\"}}").patch(configMaps(ns) + "/cm").then().statusCode(200);
        JsonNode entries = managedFields(patched);
        assertEquals(json("{\"f:data\":{\"f:b\":{}}}"), entryOf(entries, "kubectl").path("fieldsV1"));
        assertEquals(json("{\"f:data\":{\".\":{},\"f:a\":{}}}"), entryOf(entries, "kubectl-create").path("fieldsV1"));
    }

    @Test
    void anApplyThatChangesAnotherManagersFieldConflictsUnlessForced() {
        String ns = newNamespace("ssa-conflict");
        given().contentType(ContentType.JSON).body(configMap("cm", "\"a\":\"1\",\"b\":\"2\""))
                .post(configMaps(ns) + "?fieldManager=kubectl-create").then().statusCode(201);
        String url = configMaps(ns) + "/cm";

        // the same value: shared, no conflict
        apply(url, "alice", configMap("cm", "\"a\":\"1\"")).statusCode(200);
        apply(url, "alice", configMap("cm", "\"a\":\"9\""))
                .statusCode(409).body("reason", equalTo("Conflict"))
                .body("message", equalTo("Apply failed with 1 conflict: conflict with \"kubectl-create\" using v1: .data.a"))
                .body("details.causes", hasSize(1))
                .body("details.causes[0].reason", equalTo("FieldManagerConflict"))
                .body("details.causes[0].message", equalTo("conflict with \"kubectl-create\" using v1"))
                .body("details.causes[0].field", equalTo(".data.a"));
        apply(url, "alice", configMap("cm", "\"a\":\"9\",\"b\":\"8\"")).statusCode(409)
                .body("message", equalTo("Apply failed with 2 conflicts: conflicts with \"kubectl-create\" using v1:\n"
                        + "- .data.a\n- .data.b"));

        ValidatableResponse forced = given().contentType(APPLY).body(configMap("cm", "\"a\":\"9\"").getBytes())
                .patch(url + "?fieldManager=alice&force=true").then().statusCode(200).body("data.a", equalTo("9"));
        JsonNode entries = managedFields(forced);
        assertEquals(json("{\"f:data\":{\".\":{},\"f:b\":{}}}"), entryOf(entries, "kubectl-create").path("fieldsV1"));
        assertEquals(json("{\"f:data\":{\"f:a\":{}}}"), entryOf(entries, "alice").path("fieldsV1"));
    }

    @Test
    void anUpdateNeverConflictsButTakesTheFieldsItChanges() {
        String url = configMaps(newNamespace("ssa-takeover")) + "/cm";
        apply(url, "alice", configMap("cm", "\"a\":\"1\"")).statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"data\":{\"a\":\"2\"}}")
                .patch(url + "?fieldManager=bob").then().statusCode(200);
        apply(url, "alice", configMap("cm", "\"a\":\"1\"")).statusCode(409)
                .body("message", equalTo("Apply failed with 1 conflict: conflict with \"bob\" using v1: .data.a"));
    }

    @Test
    void aFieldAManagerStopsApplyingGoesOnlyWhenNobodyElseOwnsIt() {
        String url = configMaps(newNamespace("ssa-prune")) + "/cm";
        apply(url, "alice", configMap("cm", "\"shared\":\"1\",\"mine\":\"2\"")).statusCode(201);
        apply(url, "bob", configMap("cm", "\"shared\":\"1\"")).statusCode(200);

        apply(url, "alice", configMap("cm", "")).statusCode(200)
                .body("data.shared", equalTo("1")).body("data.mine", nullValue());
        ValidatableResponse last = apply(url, "bob", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}")
                .statusCode(200).body("data.shared", nullValue());
        assertEquals(null, entryOf(managedFields(last), "bob"), "a manager that owns nothing has no entry");
    }

    @Test
    void aDeploymentAppliedByKubectlIsOwnedAsKubeApiserverRecordsIt() {
        String ns = newNamespace("ssa-deploy");
        String url = "/apis/apps/v1/namespaces/" + ns + "/deployments/web";
        String manifest = """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
                 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
                  "template":{"metadata":{"labels":{"app":"web"}},
                   "spec":{"containers":[{"name":"nginx","image":"nginx:1.27","args":["-g","daemon off;"],
                     "ports":[{"containerPort":80}]}]}}}}""";
        JsonNode entry = managedFields(apply(url, "kubectl", manifest).statusCode(201)).get(0);
        assertEquals(json("""
                {"f:metadata":{"f:labels":{"f:app":{}}},
                 "f:spec":{"f:replicas":{},"f:selector":{},
                  "f:template":{"f:metadata":{"f:labels":{"f:app":{}}},
                   "f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:args":{},"f:image":{},"f:name":{},
                     "f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}}}}}}
                """), entry.path("fieldsV1"));

        // a scale is an update of spec.replicas through the subresource, which a later apply conflicts with
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"replicas\":5}}")
                .header("User-Agent", "kubectl/v1.33.0 (linux/amd64) kubernetes/abc")
                .patch(url + "/scale").then().statusCode(200);
        apply(url, "kubectl", manifest).statusCode(409).body("message", equalTo(
                "Apply failed with 1 conflict: conflict with \"kubectl\" with subresource \"scale\" using apps/v1: "
                        + ".spec.replicas"));
    }

    @Test
    void aStatusIsAppliedThroughItsSubresourceOnly() {
        String ns = newNamespace("ssa-status");
        String url = "/apis/apps/v1/namespaces/" + ns + "/deployments/web";
        apply(url + "/status", "controller", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"status\":{}}")
                .statusCode(404);
        String manifest = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
                + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":"
                + "{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}},"
                + "\"status\":{\"replicas\":7}}";
        apply(url, "kubectl", manifest).statusCode(201).body("status.replicas", nullValue());
        ValidatableResponse status = apply(url + "/status", "controller", "{\"apiVersion\":\"apps/v1\","
                + "\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":9},"
                + "\"status\":{\"replicas\":3}}").statusCode(200)
                .body("status.replicas", equalTo(3)).body("spec.replicas", equalTo(1));
        JsonNode entry = entryOf(managedFields(status), "controller");
        assertEquals("status", entry.path("subresource").asText());
        assertEquals(json("{\"f:status\":{\"f:replicas\":{}}}"), entry.path("fieldsV1"));
    }

    @Test
    void anApplyIsCheckedBeforeAnythingIsRead() {
        String ns = newNamespace("ssa-refusals");
        String url = configMaps(ns) + "/cm";
        given().contentType(APPLY).body(configMap("cm", "").getBytes()).patch(url).then().statusCode(422)
                .body("message", equalTo("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: "
                        + "is required for apply patch"));
        given().contentType(APPLY).body(configMap("cm", "").getBytes()).patch(url + "?fieldManager=" + "m".repeat(129))
                .then().statusCode(422).body("message", equalTo("PatchOptions.meta.k8s.io \"\" is invalid: "
                        + "fieldManager: Too long: may not be more than 128 bytes"));
        apply(url, "alice", "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"cm\"}}")
                .statusCode(400).body("message", equalTo("invalid object type: /v1, Kind=Secret"));
        apply(url, "alice", "{\"metadata\":{\"name\":\"cm\"}}")
                .statusCode(400).body("message", equalTo("invalid object type: /, Kind="));
        apply(url, "alice", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"other\"}}")
                .statusCode(400).body("message", equalTo("the name of the object (other) does not match the name on "
                        + "the URL (cm)"));
        apply(url, "alice", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"managedFields\":[]}}")
                .statusCode(400).body("message", equalTo("metadata.managedFields must be nil"));
        apply(url, "alice", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"bogus\":1}")
                .statusCode(400).body("message", equalTo("failed to create typed patch object (" + ns + "/cm; "
                        + "/v1, Kind=ConfigMap): .bogus: field not declared in schema"));
        given().contentType("application/merge-patch+json").body("{}").patch(url + "?force=true").then()
                .statusCode(422).body("message", equalTo("PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: "
                        + "may not be specified for non-apply patch"));
        given().get(url).then().statusCode(404);

        String pods = "/api/v1/namespaces/" + ns + "/pods/p";
        apply(pods, "alice", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"spec\":{\"containers\":["
                + "{\"name\":\"c\",\"image\":\"i\"},{\"name\":\"c\",\"image\":\"j\"}]}}").statusCode(400)
                .body("message", equalTo("failed to create typed patch object (" + ns + "/p; /v1, Kind=Pod): "
                        + ".spec.containers: duplicate entries for key [name=\"c\"]"));
    }

    @Test
    void aResourceVersionInTheConfigurationIsAPrecondition() {
        String url = configMaps(newNamespace("ssa-rv")) + "/cm";
        String rv = apply(url, "alice", configMap("cm", "\"a\":\"1\"")).statusCode(201)
                .extract().path("metadata.resourceVersion");
        apply(url, "alice", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"resourceVersion\":\"1\"},"
                + "\"data\":{\"a\":\"2\"}}").statusCode(409).body("message", equalTo("Operation cannot be fulfilled "
                + "on configmaps \"cm\": the object has been modified; please apply your changes to the latest "
                + "version and try again"));
        apply(url, "alice", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"resourceVersion\":\""
                + rv + "\"},\"data\":{\"a\":\"2\"}}").statusCode(200).body("data.a", equalTo("2"));
    }

    @Test
    void clearedManagedFieldsStayClearedUntilTheNextApplyWhichFindsThemBeforeFirstApply() {
        String ns = newNamespace("ssa-reset");
        String url = configMaps(ns) + "/cm";
        given().contentType(ContentType.JSON).body(configMap("cm", "\"a\":\"1\"")).post(configMaps(ns)).then()
                .statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"metadata\":{\"managedFields\":[{}]}}")
                .patch(url).then().statusCode(200).body("metadata.managedFields", nullValue());
        given().contentType("application/merge-patch+json").body("{\"data\":{\"b\":\"2\"}}")
                .patch(url + "?fieldManager=bob").then().statusCode(200).body("metadata.managedFields", nullValue());
        apply(url, "alice", configMap("cm", "\"a\":\"9\"")).statusCode(409).body("message", equalTo(
                "Apply failed with 1 conflict: conflict with \"before-first-apply\" using v1: .data.a"));
    }

    @Test
    void aCustomResourceMergesByItsSchemasListAndMapTypes() {
        String group = "ssa.crd.test";
        given().contentType(ContentType.JSON).body("""
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"pools.%1$s"},
                 "spec":{"group":"%1$s","scope":"Namespaced","names":{"plural":"pools","kind":"Pool"},
                  "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
                   "schema":{"openAPIV3Schema":{"type":"object","properties":{
                    "spec":{"type":"object","properties":{
                     "members":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
                      "items":{"type":"object","properties":{"name":{"type":"string"},"weight":{"type":"integer"}}}},
                     "selector":{"type":"object","x-kubernetes-map-type":"atomic",
                      "additionalProperties":{"type":"string"}},
                     "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
                    "status":{"type":"object","properties":{"ready":{"type":"integer"}}}}}}}]}}
                """.formatted(group)).post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").then()
                .statusCode(201);
        String url = "/apis/" + group + "/v1/namespaces/" + newNamespace("ssa-cr") + "/pools/p";
        String pool = "{\"apiVersion\":\"" + group + "/v1\",\"kind\":\"Pool\",\"metadata\":{\"name\":\"p\"},";

        apply(url, "alice", pool + "\"spec\":{\"members\":[{\"name\":\"a\",\"weight\":1}],"
                + "\"selector\":{\"x\":\"1\"},\"extra\":{\"deep\":{\"n\":1}}}}").statusCode(201);
        ValidatableResponse both = apply(url, "bob", pool + "\"spec\":{\"members\":[{\"name\":\"b\",\"weight\":2}]}}")
                .statusCode(200).body("spec.members.name", org.hamcrest.Matchers.contains("a", "b"));
        assertEquals(json("{\"f:spec\":{\"f:extra\":{\"f:deep\":{\".\":{},\"f:n\":{}}},"
                + "\"f:members\":{\"k:{\\\"name\\\":\\\"a\\\"}\":{\".\":{},\"f:name\":{},\"f:weight\":{}}},"
                + "\"f:selector\":{}}}"), entryOf(managedFields(both), "alice").path("fieldsV1"));

        // an atomic map is replaced whole, and owned whole: another value conflicts
        apply(url, "bob", pool + "\"spec\":{\"selector\":{\"y\":\"2\"}}}").statusCode(409)
                .body("message", equalTo("Apply failed with 1 conflict: conflict with \"alice\": .spec.selector"));
        apply(url, "alice", pool + "\"spec\":{\"selector\":{\"y\":\"2\"}}}").statusCode(200)
                .body("spec.selector.y", equalTo("2")).body("spec.selector.x", nullValue())
                .body("spec.members.name", org.hamcrest.Matchers.contains("b"));

        ValidatableResponse status = apply(url + "/status", "controller", pool + "\"status\":{\"ready\":1}}")
                .statusCode(200)
                .body("status.ready", equalTo(1)).body("spec.members.name", org.hamcrest.Matchers.contains("b"));
        JsonNode entry = entryOf(managedFields(status), "controller");
        assertEquals("status", entry.path("subresource").asText());
        assertEquals(json("{\"f:status\":{\"f:ready\":{}}}"), entry.path("fieldsV1"));
    }

    @Test
    void aNullMapInAConfigurationIsAnEmptyOneAndTakesNothingFromOthers() {
        String url = configMaps(newNamespace("ssa-null")) + "/cm";
        apply(url, "alice", configMap("cm", "\"a\":\"1\"")).statusCode(201);
        // as YAML reads it, "data:" with nothing after it is null
        ValidatableResponse applied = apply(url, "carol", "apiVersion: v1\nkind: ConfigMap\ndata:\n").statusCode(200)
                .body("data.a", equalTo("1"));
        assertEquals(json("{\"f:data\":{\"f:a\":{}}}"), entryOf(managedFields(applied), "alice").path("fieldsV1"));
    }

    @Test
    void aKeyTheDocumentRepeatsIsRefusedWhenValidationIsStrict() {
        String url = configMaps(newNamespace("ssa-strict")) + "/cm";
        String repeated = "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: \"1\"\n  a: \"2\"\n";
        given().contentType(APPLY).body(repeated.getBytes()).patch(url + "?fieldManager=m&fieldValidation=Strict")
                .then().statusCode(400).body("message", org.hamcrest.Matchers.startsWith(
                        "error strict decoding patch: Duplicate field 'a'"));
        given().contentType(APPLY).body(repeated.getBytes()).patch(url + "?fieldManager=m").then().statusCode(201)
                .header("Warning", org.hamcrest.Matchers.containsString("Duplicate field 'a'"));
    }
}
