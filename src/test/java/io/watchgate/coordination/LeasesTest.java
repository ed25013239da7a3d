package io.watchgate.coordination;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * coordination.k8s.io/v1 Leases, as leader election and node heartbeats use them: served like any built-in type
 * (discovery, a Table with the holder), their spec validated as kube-apiserver validates it, times kept to the
 * microsecond, and a PUT that must name the resourceVersion it replaces (taking a lease is a compare-and-swap)
 * and that creates a lease not there yet.
 */
@QuarkusTest
class LeasesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACQUIRED = "2026-07-24T09:58:01.000412Z";
    private static final String RENEWED = "2026-07-24T10:00:03.512338Z";

    private static String leases(String namespace) {
        return "/apis/coordination.k8s.io/v1/namespaces/" + namespace + "/leases";
    }

    private static String lease(String name, String spec) {
        return "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":" + spec + "}";
    }

    private static String held(String holder, long transitions) {
        return "{\"holderIdentity\":\"" + holder + "\",\"leaseDurationSeconds\":15,\"acquireTime\":\"" + ACQUIRED
                + "\",\"renewTime\":\"" + RENEWED + "\",\"leaseTransitions\":" + transitions + "}";
    }

    /** The answer's body, once its status code is the one expected. */
    private static JsonNode answer(Response response, int status) throws Exception {
        response.then().statusCode(status);
        return JSON.readTree(response.asString());
    }

    private static Response post(String collection, String body) {
        return given().contentType(ContentType.JSON).body(body).post(collection);
    }

    private static Response put(String url, String body) {
        return given().contentType(ContentType.JSON).body(body).put(url);
    }

    @Test
    void leasesAreServedInCoordinationV1AsANamespacedTypeWithEveryVerb() throws Exception {
        JsonNode resources = answer(given().get("/apis/coordination.k8s.io/v1"), 200).path("resources");
        JsonNode leases = null;
        for (JsonNode resource : resources) {
            if (resource.path("name").asText().equals("leases")) {
                leases = resource;
            }
        }
        assertTrue(leases != null, "leases in " + resources);
        assertEquals("Lease", leases.path("kind").asText());
        assertTrue(leases.path("namespaced").asBoolean());
        List<String> verbs = new ArrayList<>();
        leases.path("verbs").forEach(verb -> verbs.add(verb.asText()));
        assertEquals(List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"),
                verbs.stream().sorted().toList());
    }

    @Test
    void aLeaseIsDescribedByKubernetesOwnSchema() throws Exception {
        JsonNode document = answer(given().get("/openapi/v3/apis/coordination.k8s.io/v1"), 200);
        JsonNode spec = document.path("components").path("schemas").path("io.k8s.api.coordination.v1.LeaseSpec");
        assertTrue(spec.path("properties").has("holderIdentity"), "LeaseSpec in " + document.path("components"));

        String ns = newNamespace("lease-schema");
        JsonNode strict = answer(given().contentType(ContentType.JSON)
                .body(lease("strict", "{\"holderIdentity\":\"cp-1\",\"holder\":\"cp-1\"}"))
                .post(leases(ns) + "?fieldValidation=Strict"), 400);
        assertTrue(strict.path("message").asText().contains("unknown field \"spec.holder\""), strict.toString());
    }

    @Test
    void aLeaseKeepsItsHolderAndItsTimesToTheMicrosecond() throws Exception {
        String ns = newNamespace("lease-times");
        JsonNode created = answer(post(leases(ns), lease("leader", held("cp-1", 4))), 201);
        JsonNode spec = created.path("spec");
        assertEquals("cp-1", spec.path("holderIdentity").asText());
        assertEquals(15, spec.path("leaseDurationSeconds").asInt());
        assertEquals(ACQUIRED, spec.path("acquireTime").asText());
        assertEquals(RENEWED, spec.path("renewTime").asText());
        assertEquals(4, spec.path("leaseTransitions").asInt());
        assertEquals(created, answer(given().get(leases(ns) + "/leader"), 200));

        // kube reads MicroTime by a fixed layout; a time of whole seconds is taken here, and always written with six
        String lenient = "{\"holderIdentity\":\"cp-2\",\"renewTime\":\"2026-07-24T10:00:03Z\"}";
        JsonNode seconds = answer(post(leases(ns), lease("seconds", lenient)), 201);
        assertEquals("2026-07-24T10:00:03.000000Z", seconds.path("spec").path("renewTime").asText());

        // RFC 3339 has four digits of year: a time beyond them could be stored but never read by a Go client
        String farOffTime = "{\"renewTime\":\"+10000-01-01T00:00:00Z\"}";
        JsonNode farOff = answer(post(leases(ns), lease("far-off", farOffTime)), 400);
        assertTrue(farOff.path("message").asText().contains("year outside of range [0,9999]"), farOff.toString());
    }

    @Test
    void aLeaseIsTakenByACompareAndSwapOnItsResourceVersion() throws Exception {
        String ns = newNamespace("lease-cas");
        JsonNode created = answer(post(leases(ns), lease("leader", held("cp-1", 0))), 201);
        String version = created.path("metadata").path("resourceVersion").asText();

        // a renewal names the version it read, and moves renewTime on
        String renewal = "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":"
                + "\"leader\",\"resourceVersion\":\"" + version + "\"},\"spec\":"
                + held("cp-1", 0).replace(RENEWED, "2026-07-24T10:00:05.000001Z") + "}";
        JsonNode renewed = answer(put(leases(ns) + "/leader", renewal), 200);
        String renewedVersion = renewed.path("metadata").path("resourceVersion").asText();
        assertTrue(Long.parseLong(renewedVersion) > Long.parseLong(version));

        // a candidate that read the lease before that renewal loses the race
        String takeover = renewal.replace("cp-1", "cp-2").replace("\"leaseTransitions\":0", "\"leaseTransitions\":1");
        JsonNode conflict = answer(put(leases(ns) + "/leader", takeover), 409);
        assertEquals("Conflict", conflict.path("reason").asText());

        // and one that names no version at all is refused, as kube's store words it
        String blind = lease("leader", held("cp-3", 1));
        JsonNode invalid = answer(put(leases(ns) + "/leader", blind), 422);
        assertEquals("leases.coordination.k8s.io \"leader\" is invalid: metadata.resourceVersion: Invalid value: 0x0: "
                + "must be specified for an update", invalid.path("message").asText());
        assertEquals("cp-1", answer(given().get(leases(ns) + "/leader"), 200)
                .path("spec").path("holderIdentity").asText(), "neither took it");
    }

    @Test
    void aPutCreatesALeaseThatIsNotThereYetButNotAConfigMap() throws Exception {
        String ns = newNamespace("lease-put");
        JsonNode created = answer(put(leases(ns) + "/heartbeat", lease("heartbeat", held("node-1", 0))), 201);
        assertEquals("node-1", created.path("spec").path("holderIdentity").asText());
        given().get(leases(ns) + "/heartbeat").then().statusCode(200);

        put("/api/v1/namespaces/" + ns + "/configmaps/absent",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"absent\"}}")
                .then().statusCode(404);
    }

    @Test
    void aLeaseSpecIsValidatedAsKubeValidatesItAndNothingIsStored() throws Exception {
        String ns = newNamespace("lease-invalid");
        assertInvalid(ns, "{\"leaseDurationSeconds\":0}",
                "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0");
        assertInvalid(ns, "{\"leaseTransitions\":-1}",
                "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0");
        assertInvalid(ns, "{\"preferredHolder\":\"cp-2\"}",
                "spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined");
        assertInvalid(ns, "{\"strategy\":\"Youngest\"}",
                "spec.strategy.strategy: Unsupported value: \"Youngest\": supported values: "
                        + "\"OldestEmulationVersion\"");
        post(leases(ns), lease("own-strategy", "{\"strategy\":\"example.com/mine\",\"preferredHolder\":\"cp-2\"}"))
                .then().statusCode(201);
    }

    private static void assertInvalid(String ns, String spec, String cause) throws Exception {
        JsonNode refused = answer(post(leases(ns), lease("refused", spec)), 422);
        assertEquals("Lease.coordination.k8s.io \"refused\" is invalid: " + cause, refused.path("message").asText());
        given().get(leases(ns) + "/refused").then().statusCode(404);
    }

    @Test
    void aTableOfLeasesShowsEachHolder() throws Exception {
        String ns = newNamespace("lease-table");
        post(leases(ns), lease("leader", held("cp-1", 0))).then().statusCode(201);
        JsonNode table = answer(given().accept("application/json;as=Table;g=meta.k8s.io;v=v1").get(leases(ns)), 200);
        List<String> columns = new ArrayList<>();
        table.path("columnDefinitions").forEach(column -> columns.add(column.path("name").asText()));
        assertEquals(List.of("Name", "Holder", "Age"), columns);
        assertEquals("leader", table.path("rows").path(0).path("cells").path(0).asText());
        assertEquals("cp-1", table.path("rows").path(0).path("cells").path(1).asText());
    }
}
