package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every refused request answers a Kubernetes Status with the right code and reason, names the problem, and
 * leaves the store exactly as it was.
 */
@QuarkusTest
class ErrorResponsesTest {

    private String ns;

    @BeforeEach
    void namespaceWithOneConfigMap() {
        ns = newNamespace("errors");
        createOk(configMaps(ns), configMap("existing", "\"data\":{\"k\":\"v\"}"));
    }

    /** Sends a request and checks the Status it gets back, and that no revision was taken. */
    private ValidatableResponse refused(int code, String reason, Function<RequestSpecification, io.restassured.response.Response> request) {
        long before = Api.currentRevision();
        ValidatableResponse response = request.apply(given()).then()
                .statusCode(code)
                .contentType(ContentType.JSON)
                .body("kind", equalTo("Status"))
                .body("apiVersion", equalTo("v1"))
                .body("status", equalTo("Failure"))
                .body("reason", equalTo(reason))
                .body("code", equalTo(code));
        assertEquals(before, Api.currentRevision(), "a refused request must not change the store");
        return response;
    }

    private RequestSpecification json(RequestSpecification request, String body) {
        return request.contentType(ContentType.JSON).body(body);
    }

    @Test
    void malformedJsonIsBadRequest() {
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":").post(configMaps(ns)))
                .body("message", containsString("not valid JSON"));
        refused(400, "BadRequest", r -> json(r, "[1,2]").post(configMaps(ns)));
        refused(400, "BadRequest", r -> json(r, "{} {}").post(configMaps(ns)));
        refused(400, "BadRequest", r -> json(r, "").post(configMaps(ns)));
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":\"x\"}").post(configMaps(ns)));
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":1}}}")
                .post(configMaps(ns)));
    }

    @Test
    void aBodyThatContradictsTheUrlIsBadRequest() {
        refused(400, "BadRequest", r -> json(r, "{\"kind\":\"Secret\",\"metadata\":{\"name\":\"a\"}}").post(configMaps(ns)))
                .body("message", containsString("Secret"));
        refused(400, "BadRequest", r -> json(r, "{\"apiVersion\":\"v2\",\"metadata\":{\"name\":\"a\"}}").post(configMaps(ns)))
                .body("message", containsString("v2"));
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":{\"name\":\"a\",\"namespace\":\"other\"}}").post(configMaps(ns)))
                .body("message", containsString("does not match the namespace"));
        refused(400, "BadRequest", r -> json(r, configMap("other", "")).put(configMaps(ns) + "/existing"))
                .body("message", containsString("does not match the name"));
    }

    @Test
    void unknownResourcesAndObjectsAreNotFound() {
        refused(404, "NotFound", r -> r.get("/api/v1/namespaces/" + ns + "/widgets"));
        refused(404, "NotFound", r -> r.get("/apis/example.com/v1/widgets"));
        refused(404, "NotFound", r -> r.get("/nothing/here"));
        refused(404, "NotFound", r -> r.get(configMaps(ns) + "/missing"))
                .body("details.name", equalTo("missing"))
                .body("details.kind", equalTo("configmaps"));
        refused(404, "NotFound", r -> json(r, configMap("missing", "")).put(configMaps(ns) + "/missing"));
        refused(404, "NotFound", r -> r.contentType("application/merge-patch+json").body("{}")
                .patch(configMaps(ns) + "/missing"));
    }

    @Test
    void verbsAPathDoesNotServeAreMethodNotAllowed() {
        refused(405, "MethodNotAllowed", r -> json(r, "{}").put(configMaps(ns)));
        refused(405, "MethodNotAllowed", r -> json(r, "{}").post(configMaps(ns) + "/existing"));
        refused(405, "MethodNotAllowed", r -> json(r, configMap("x", "")).post("/api/v1/configmaps"));
    }

    @Test
    void verbsOnPathsThatNameNothingAreNotFoundNotMethodNotAllowed() {
        refused(404, "NotFound", r -> json(r, "{}").put("/api/v1/namespaces/" + ns + "/nosuchthings"));
        refused(404, "NotFound", r -> json(r, "{}").put("/api/v1/nosuchthings"));
        refused(404, "NotFound", r -> json(r, "{}").post("/api/v1/namespaces/" + ns + "/nosuchthings/x"));
        // a namespace's status and finalize subresources are not served (core types have no subresources)
        refused(404, "NotFound", r -> json(r, "{}").put("/api/v1/namespaces/" + ns + "/status"));
        refused(404, "NotFound", r -> r.contentType("application/merge-patch+json").body("{}")
                .patch("/api/v1/namespaces/" + ns + "/status"));
        refused(404, "NotFound", r -> json(r, "{}").put("/api/v1/namespaces/" + ns + "/finalize"));
    }

    @Test
    void unsupportedMediaTypes() {
        refused(406, "NotAcceptable", r -> r.accept("application/yaml").get(configMaps(ns)));
        refused(415, "UnsupportedMediaType", r -> r.contentType("text/plain").body(configMap("a", "").getBytes()).post(configMaps(ns)));
        refused(415, "UnsupportedMediaType", r -> r.contentType(ContentType.JSON).body("{}")
                .patch(configMaps(ns) + "/existing"))
                .body("message", containsString("application/merge-patch+json"));
        refused(422, "Invalid", r -> r.contentType("application/apply-patch+yaml").body("{}".getBytes())
                .patch(configMaps(ns) + "/existing"))
                .body("message", equalTo("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: "
                        + "is required for apply patch"));
    }

    @Test
    void duplicatesAndStaleWritesConflict() {
        refused(409, "AlreadyExists", r -> json(r, configMap("existing", "")).post(configMaps(ns)))
                .body("message", equalTo("configmaps \"existing\" already exists"));
        refused(409, "Conflict", r -> json(r, "{\"metadata\":{\"name\":\"existing\",\"resourceVersion\":\"1\"}}")
                .put(configMaps(ns) + "/existing"));
    }

    @Test
    void bodiesOverTheLimitAreTooLarge() {
        String huge = "{\"metadata\":{\"name\":\"huge\"},\"data\":{\"k\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}}";
        refused(413, "RequestEntityTooLarge", r -> json(r, huge).post(configMaps(ns)));
    }

    @Test
    void invalidObjectsAreUnprocessableWithOneCausePerField() {
        refused(422, "Invalid", r -> json(r, configMap("Bad_Name!", "")).post(configMaps(ns)))
                .body("message", startsWith("ConfigMap \"Bad_Name!\" is invalid: metadata.name: Invalid value: "
                        + "\"Bad_Name!\": a lowercase RFC 1123 subdomain must consist of"))
                .body("details.kind", equalTo("ConfigMap"))
                .body("details.causes[0].reason", equalTo("FieldValueInvalid"))
                .body("details.causes[0].field", equalTo("metadata.name"));
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"name\":\"" + "a".repeat(254) + "\"}}").post(configMaps(ns)))
                .body("details.causes[0].message", containsString("must be no more than 253 characters"));
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{}}").post(configMaps(ns)))
                .body("details.causes[0].reason", equalTo("FieldValueRequired"));
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"name\":\"Upper\"}}").post("/api/v1/namespaces"));
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"name\":\"1-starts-with-digit\"},\"spec\":{}}")
                .post("/api/v1/namespaces/" + ns + "/services"));
        refused(422, "Invalid", r -> json(r, Api.labelled("a", "{\"bad key!\":\"v\",\"ok\":\"bad value!\"}")).post(configMaps(ns)))
                .body("details.causes.field", hasItem("metadata.labels"))
                .body("details.causes.size()", equalTo(2));
        refused(422, "Invalid", r -> json(r, configMap("a", "\"data\":{\"bad/key\":\"v\"}")).post(configMaps(ns)))
                .body("details.causes[0].field", equalTo("data[bad/key]"));
        String bigAnnotation = "x".repeat(256 * 1024);
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"name\":\"a\",\"annotations\":{\"k\":\"" + bigAnnotation + "\"}}}")
                .post(configMaps(ns)))
                .body("details.causes[0].reason", equalTo("FieldValueTooLong"))
                .body("details.causes[0].field", equalTo("metadata.annotations"));
        String overOneMiB = "x".repeat(1024 * 1024 + 1);
        refused(422, "Invalid", r -> json(r, configMap("a", "\"data\":{\"k\":\"" + overOneMiB + "\"}")).post(configMaps(ns)))
                .body("details.causes[0].reason", equalTo("FieldValueTooLong"));
        refused(422, "Invalid", r -> json(r, configMap("existing", "\"metadata\":{\"name\":\"existing\",\"labels\":{\"-\":\"x\"}}"))
                .put(configMaps(ns) + "/existing"));
    }

    @Test
    void badQueryParametersAreBadRequest() {
        refused(400, "BadRequest", r -> r.queryParam("labelSelector", "app in (").get(configMaps(ns)));
        refused(400, "BadRequest", r -> r.queryParam("fieldSelector", "spec.nope=1").get(configMaps(ns)))
                .body("message", containsString("field label not supported: spec.nope"));
        refused(400, "BadRequest", r -> r.queryParam("limit", "ten").get(configMaps(ns)));
        refused(400, "BadRequest", r -> r.queryParam("resourceVersion", "abc").get(configMaps(ns)));
        refused(400, "BadRequest", r -> r.queryParam("continue", "not-a-token").get(configMaps(ns)));
        refused(422, "Invalid", r -> json(r, configMap("a", "")).queryParam("dryRun", "Some").post(configMaps(ns)))
                .body("message", startsWith("CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value"));
        refused(400, "BadRequest", r -> r.queryParam("labelSelector", "x in (").delete(configMaps(ns)));
    }

    @Test
    void invalidBase64InSecretDataIsBadRequest() {
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":{\"name\":\"s\"},\"data\":{\"k\":\"not base64!\"}}")
                .post("/api/v1/namespaces/" + ns + "/secrets"));
    }

    @Test
    void malformedPatchesAreRefusedAsClientErrors() {
        String existing = configMaps(ns) + "/existing";
        refused(400, "BadRequest", r -> r.contentType("application/json-patch+json").body("[{\"op\":\"add\"}]").patch(existing));
        refused(400, "BadRequest", r -> r.contentType("application/json-patch+json").body("[1]").patch(existing));
        refused(400, "BadRequest", r -> r.contentType("application/json-patch+json").body("{}").patch(existing));
        refused(422, "Invalid", r -> r.contentType("application/json-patch+json")
                .body("[{\"op\":\"move\",\"from\":\"/nope\",\"path\":\"/x\"}]").patch(existing));
        refused(400, "BadRequest", r -> r.contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/metadata/name\",\"value\":\"other\"}]").patch(existing));
        refused(400, "BadRequest", r -> r.contentType("application/merge-patch+json").body("[]").patch(existing));
        refused(400, "BadRequest", r -> r.contentType("application/merge-patch+json").body("{\"kind\":\"Pod\"}").patch(existing));
        refused(400, "BadRequest", r -> r.contentType("application/strategic-merge-patch+json")
                .body("{\"metadata\":{\"ownerReferences\":[1]}}").patch(existing));
        refused(400, "BadRequest", r -> r.contentType("application/strategic-merge-patch+json")
                .body("{\"$patch\":\"explode\"}").patch(existing));
        refused(400, "BadRequest", r -> r.contentType("application/strategic-merge-patch+json")
                .body("{\"$patch\":\"delete\"}").patch(existing));
    }

    @Test
    void aContinueTokenIsOnlyGoodForItsOwnList() {
        createOk(configMaps(ns), configMap("second", ""));
        String token = given().queryParam("limit", 1).get(configMaps(ns)).path("metadata.continue");
        String other = newNamespace("errors-other");
        refused(400, "BadRequest", r -> r.queryParam("continue", token).get(configMaps(other)))
                .body("message", containsString("continue key is not valid"));
        refused(400, "BadRequest", r -> r.queryParam("continue", token).get("/api/v1/configmaps"));
        refused(400, "BadRequest", r -> r.queryParam("continue", token).get("/api/v1/namespaces/" + ns + "/secrets"));

        String scope = "configmaps/" + ns;
        String negative = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"v\":\"meta.k8s.io/v1\",\"scope\":\"" + scope + "\",\"rv\":" + Api.currentRevision()
                        + ",\"start\":\"" + ns + "/a\",\"remaining\":-2147483648}").getBytes());
        refused(400, "BadRequest", r -> r.queryParam("continue", negative).get(configMaps(ns)));
        String beyond = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"v\":\"meta.k8s.io/v1\",\"scope\":\"" + scope + "\",\"rv\":" + Api.currentRevision()
                        + ",\"start\":\"zzzz/zzzz\"}").getBytes());
        given().queryParam("continue", beyond).get(configMaps(ns)).then().statusCode(200).body("items.size()", equalTo(0));
    }

    @Test
    void deleteOptionsThatDoNotDecodeAreRefusedAndDeleteNothing() {
        String existing = configMaps(ns) + "/existing";
        refused(400, "BadRequest", r -> json(r, "{\"dryRun\":\"All\"}").delete(existing));
        refused(400, "BadRequest", r -> json(r, "{\"preconditions\":\"bogus\"}").delete(existing));
        refused(422, "Invalid", r -> json(r, "{\"dryRun\":[\"Some\"]}").delete(existing));
        refused(422, "Invalid", r -> json(r, "{\"propagationPolicy\":\"Sideways\"}").delete(existing))
                .body("details.causes[0].reason", equalTo("FieldValueNotSupported"))
                .body("details.causes[0].field", equalTo("propagationPolicy"));
        refused(400, "BadRequest", r -> json(r, "[]").delete(existing));
        given().get(existing).then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"dryRun\":[\"All\"]}").delete(existing).then().statusCode(200);
        given().get(existing).then().statusCode(200);
    }

    @Test
    void jsonPatchPathsThatAreNotPointersAreClientErrors() {
        String existing = configMaps(ns) + "/existing";
        createOk(configMaps(ns), configMap("arr", "\"list\":[1,2]"));
        refused(400, "BadRequest", r -> r.contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"arr\",\"value\":1}]").patch(existing));
        for (String path : new String[] { "/list/abc", "/list/-1", "/list/01", "/x~2" }) {
            int code = given().contentType("application/json-patch+json")
                    .body("[{\"op\":\"replace\",\"path\":\"" + path + "\",\"value\":1}]")
                    .patch(configMaps(ns) + "/arr").statusCode();
            org.junit.jupiter.api.Assertions.assertTrue(code == 400 || code == 422, path + " answered " + code);
        }
    }

    @Test
    void typedFieldsOfTheWrongShapeAreBadRequest() {
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":{\"name\":\"n-" + ns + "\"},\"status\":\"x\"}")
                .post("/api/v1/namespaces"));
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":{\"name\":\"s\"},\"data\":\"x\",\"stringData\":{\"a\":\"b\"}}")
                .post("/api/v1/namespaces/" + ns + "/secrets"));
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":{\"name\":\"f\",\"finalizers\":\"x\"}}").post(configMaps(ns)));
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":{\"name\":\"f\",\"finalizers\":[1]}}").post(configMaps(ns)));
        refused(400, "BadRequest", r -> json(r, "{\"metadata\":{\"name\":\"f\",\"ownerReferences\":\"x\"}}").post(configMaps(ns)));
        refused(400, "BadRequest", r -> r.contentType("application/strategic-merge-patch+json")
                .body("{\"metadata\":{\"finalizers\":[{\"$patch\":\"replace\"}]}}").patch(configMaps(ns) + "/existing"));
    }

    @Test
    void metadataListsAreValidated() {
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"name\":\"f\",\"finalizers\":[\"hold\"]}}").post(configMaps(ns)))
                .body("details.causes[0].field", equalTo("metadata.finalizers[0]"))
                .body("details.causes[0].message", containsString("neither a standard finalizer name nor"));
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"name\":\"f\",\"ownerReferences\":[{\"apiVersion\":\"v1\","
                + "\"kind\":\"Pod\",\"name\":\"p\"}]}}").post(configMaps(ns)))
                .body("details.causes[0].field", equalTo("metadata.ownerReferences[0].uid"))
                .body("details.causes[0].reason", equalTo("FieldValueRequired"));
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"generateName\":\"Bad_\"}}").post(configMaps(ns)))
                .body("details.causes[0].field", equalTo("metadata.generateName"));
    }

    @Test
    void aDryRunCreateOfAnExistingNameConflicts() {
        refused(409, "AlreadyExists", r -> json(r, configMap("existing", "")).queryParam("dryRun", "All").post(configMaps(ns)));
    }

    @Test
    void updatesMayNotChangeTheUidNorAddFinalizersToADeletingObject() {
        refused(409, "Conflict", r -> json(r, "{\"metadata\":{\"name\":\"existing\",\"uid\":\"someone-else\"}}")
                .put(configMaps(ns) + "/existing"))
                .body("message", containsString("Precondition failed: UID in precondition: someone-else"));

        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"held\",\"finalizers\":[\"example.com/a\"]}}");
        given().delete(configMaps(ns) + "/held").then().statusCode(200);
        refused(422, "Invalid", r -> r.contentType("application/merge-patch+json")
                .body("{\"metadata\":{\"finalizers\":[\"example.com/a\",\"example.com/b\"]}}")
                .patch(configMaps(ns) + "/held"))
                .body("details.causes[0].reason", equalTo("FieldValueForbidden"))
                .body("details.causes[0].message", containsString("no new finalizers can be added"));
    }

    @Test
    void resourceVersionZeroInAnUpdateIsUnconditional() {
        given().contentType(ContentType.JSON)
                .body("{\"metadata\":{\"name\":\"existing\",\"resourceVersion\":\"0\"},\"data\":{\"k\":\"new\"}}")
                .put(configMaps(ns) + "/existing")
                .then().statusCode(200).body("data.k", equalTo("new"));
    }

    @Test
    void zeroInAnySpellingIsStillZero() {
        refused(400, "BadRequest", r -> r.queryParam("resourceVersion", "00").queryParam("resourceVersionMatch", "Exact")
                .get(configMaps(ns)));
        String negative = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"v\":\"meta.k8s.io/v1\",\"rv\":-5,\"start\":\"a/b\"}".getBytes());
        refused(400, "BadRequest", r -> r.queryParam("continue", negative).get(configMaps(ns)));
    }

    @Test
    void aChunkedBodyOverTheLimitIsTooLarge() throws Exception {
        long before = Api.currentRevision();
        byte[] huge = ("{\"metadata\":{\"name\":\"huge\"},\"data\":{\"k\":\"" + "x".repeat(4 * 1024 * 1024) + "\"}}")
                .getBytes();
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port
                                + configMaps(ns)))
                .header("Content-Type", "application/json")
                // a stream of unknown length is sent chunked, without Content-Length
                .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(huge)))
                .build();
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(413, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
        org.junit.jupiter.api.Assertions.assertTrue(response.body().contains("\"reason\":\"RequestEntityTooLarge\""),
                response.body());
        assertEquals(before, Api.currentRevision());
    }

    @Test
    void aWatchParameterThatIsNoBooleanIsRefused() {
        refused(400, "BadRequest", r -> r.queryParam("watch", "maybe").get(configMaps(ns)));
        given().queryParam("watch", "0").get(configMaps(ns)).then().statusCode(200).body("kind", equalTo("ConfigMapList"));
    }

    @Test
    void anAcceptHeaderWithNothingServableIs406() {
        given().accept("application/json;as=Widgets;v=v1;g=meta.k8s.io,application/json").get(configMaps(ns))
                .then().statusCode(200).contentType(ContentType.JSON).body("kind", equalTo("ConfigMapList"));
        refused(406, "NotAcceptable", r -> r.accept("application/json;as=Widgets;v=v1;g=meta.k8s.io").get(configMaps(ns)));
        refused(406, "NotAcceptable", r -> r.accept("application/json;as=Table;v=v9;g=meta.k8s.io").get(configMaps(ns)));
    }

    @Test
    void numbersAndNestingThatCannotBeStoredAreBadRequest() {
        refused(400, "BadRequest", r -> json(r, configMap("n", "\"x\":1e2147483648")).post(configMaps(ns)));
        refused(400, "BadRequest", r -> json(r, configMap("n", "\"x\":1e999999")).post(configMaps(ns)));
        refused(400, "BadRequest", r -> json(r, configMap("n", "\"x\":" + "[".repeat(600) + "]".repeat(600)))
                .post(configMaps(ns)));
        // each part is shallow enough to parse; together they nest deeper than the store allows
        String deepValue = "[".repeat(450) + "]".repeat(450);
        // (a core object nests deeply only in its managed fields, where each field owned is a level)
        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"deep\",\"managedFields\":[{\"manager\":\"m\","
                + "\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":"
                + "{\"f:a\":".repeat(100) + "{}" + "}".repeat(100) + "}]}}");
        refused(400, "BadRequest", r -> r.contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/metadata/managedFields/0/fieldsV1" + "/f:a".repeat(100)
                        + "/deep\",\"value\":" + deepValue + "}]")
                .patch(configMaps(ns) + "/deep"));
    }

    @Test
    void oddHeadersAndParametersAreClientErrors() {
        refused(406, "NotAcceptable", r -> r.header("Accept", ";").get(configMaps(ns)));
        refused(406, "NotAcceptable", r -> r.header("Accept", ";").queryParam("watch", "true").get(configMaps(ns)));
        refused(406, "NotAcceptable", r -> r.header("Accept", ";").get("/api"));
        refused(400, "BadRequest", r -> r.queryParam("resourceVersion", "+5").get(configMaps(ns)));
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"name\":\"existing\",\"resourceVersion\":\"+5\"}}")
                .put(configMaps(ns) + "/existing"));
        refused(400, "BadRequest", r -> json(r, "{\"apiVersion\":\"v9\",\"kind\":\"DeleteOptions\"}")
                .delete(configMaps(ns) + "/existing"));
        refused(400, "BadRequest", r -> json(r, "{\"gracePeriodSeconds\":1.5}").delete(configMaps(ns) + "/existing"));
        refused(422, "Invalid", r -> r.queryParam("propagationPolicy", "Sideways").delete(configMaps(ns) + "/existing"));
        // with a body, Kubernetes reads the options from it alone
        given().queryParam("propagationPolicy", "Sideways").contentType(ContentType.JSON)
                .body("{\"dryRun\":[\"All\"]}").delete(configMaps(ns) + "/existing").then().statusCode(200);
        refused(422, "Invalid", r -> json(r, "{\"metadata\":{\"name\":\"existing\",\"resourceVersion\":\"\u0662\"}}")
                .put(configMaps(ns) + "/existing"));
    }

    @Test
    void namespacesHaveNoDeleteCollection() {
        refused(405, "MethodNotAllowed", r -> r.delete("/api/v1/namespaces"));
    }

    @Test
    void longLabelSelectorsAreServed() {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 700; i++) {
            values.append(i == 0 ? "" : ",").append("v").append(i);
        }
        given().queryParam("labelSelector", "a in (" + values + ")").get(configMaps(ns))
                .then().statusCode(200).body("kind", equalTo("ConfigMapList"));
    }

    @Test
    void aJsonPatchThatWouldBlowUpTheObjectIsRefusedEarly() {
        createOk(configMaps(ns), configMap("bomb", "\"data\":{\"a\":\"xxxxxxxxxx\"}"));
        StringBuilder copies = new StringBuilder("[");
        for (int i = 0; i < 24; i++) {
            copies.append(i == 0 ? "" : ",").append("{\"op\":\"copy\",\"from\":\"/data\",\"path\":\"/data/c")
                    .append(i).append("\"}");
        }
        String patch = copies.append("]").toString();
        refused(413, "RequestEntityTooLarge", r -> r.contentType("application/json-patch+json").body(patch)
                .patch(configMaps(ns) + "/bomb"));
    }

    @Test
    void repeatedPatchesCannotGrowAnObjectPastTheLimit() {
        // managed fields: the one part of a ConfigMap without a size rule of its own (a field name may be long)
        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"growing\",\"managedFields\":[{\"manager\":\"m\","
                + "\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\","
                + "\"fieldsV1\":{\"f:x\":{}}}]}}");
        String twoMiB = "x".repeat(2 * 1024 * 1024);
        given().contentType("application/json-patch+json").body("[{\"op\":\"add\",\"path\":"
                + "\"/metadata/managedFields/0/fieldsV1/f:a" + twoMiB + "\",\"value\":{}}]")
                .patch(configMaps(ns) + "/growing").then().statusCode(200);
        refused(413, "RequestEntityTooLarge", r -> r.contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/metadata/managedFields/0/fieldsV1/f:b" + twoMiB
                        + "\",\"value\":{}}]").patch(configMaps(ns) + "/growing"));
    }

    @Test
    void jsonPointersAreCheckedAndRemovalsMustFindTheirTarget() {
        createOk("/api/v1/namespaces/" + ns + "/pods", "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"a\"}]}}");
        String pod = "/api/v1/namespaces/" + ns + "/pods/p";
        for (String path : new String[] { "/data/~", "/~", "/data/a~", "/data/~3" }) {
            refused(400, "BadRequest", r -> r.contentType("application/json-patch+json")
                    .body("[{\"op\":\"test\",\"path\":\"" + path + "\",\"value\":\"x\"}]").patch(configMaps(ns) + "/existing"));
        }
        refused(422, "Invalid", r -> r.contentType("application/json-patch+json")
                .body("[{\"op\":\"replace\",\"path\":\"/spec/containers/-\",\"value\":{\"name\":\"z\"}}]").patch(pod));
        refused(422, "Invalid", r -> r.contentType("application/json-patch+json")
                .body("[{\"op\":\"remove\",\"path\":\"/spec/nope\"}]").patch(pod));
    }

    @Test
    void optionsIsNotServed() {
        refused(405, "MethodNotAllowed", r -> r.options(configMaps(ns)));
    }
}
