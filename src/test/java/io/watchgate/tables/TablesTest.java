package io.watchgate.tables;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

/** Reads as kubectl and metadata-only clients ask for them: server-side Tables and PartialObjectMetadata. */
@QuarkusTest
class TablesTest {

    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
    /** What kubectl get sends. */
    private static final String KUBECTL_GET = TABLE + ",application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    @Test
    void kubectlGetsATableWithTheColumnsKubernetesPrints() {
        String ns = newNamespace("tables");
        createOk(configMaps(ns), configMap("a", "\"data\":{\"x\":\"1\",\"y\":\"2\"},\"binaryData\":{\"b\":\"AA==\"}"));
        createOk(configMaps(ns), configMap("b", ""));
        String listed = given().get(configMaps(ns)).then().extract().path("metadata.resourceVersion");
        given().accept(KUBECTL_GET).get(configMaps(ns)).then().statusCode(200)
                .contentType(TABLE)
                .body("kind", equalTo("Table"))
                .body("apiVersion", equalTo("meta.k8s.io/v1"))
                .body("metadata.resourceVersion", equalTo(listed))
                .body("columnDefinitions.name", contains("Name", "Data", "Age"))
                .body("columnDefinitions[0].format", equalTo("name"))
                .body("columnDefinitions[1].type", equalTo("integer"))
                .body("columnDefinitions.priority", contains(0, 0, 0))
                .body("rows", hasSize(2))
                .body("rows[0].cells[0]", equalTo("a"))
                .body("rows[0].cells[1]", equalTo(3))
                .body("rows[0].cells[2]", org.hamcrest.Matchers.matchesPattern("\\d+s"))
                .body("rows[1].cells[1]", equalTo(0))
                .body("rows[0].object.kind", equalTo("PartialObjectMetadata"))
                .body("rows[0].object.apiVersion", equalTo("meta.k8s.io/v1"))
                .body("rows[0].object.metadata.name", equalTo("a"))
                .body("rows[0].object.metadata.uid", notNullValue())
                .body("rows[0].object", not(hasKey("data")));
    }

    @Test
    void aTableOfOneObjectAndTheIncludeObjectChoices() {
        String ns = newNamespace("tables-one");
        createOk(configMaps(ns), configMap("a", "\"data\":{\"x\":\"1\"}"));
        given().accept(TABLE).get(configMaps(ns) + "/a").then().statusCode(200)
                .body("kind", equalTo("Table"))
                .body("rows", hasSize(1))
                .body("rows[0].cells[0]", equalTo("a"));
        given().accept(TABLE).queryParam("includeObject", "Object").get(configMaps(ns) + "/a").then()
                .body("rows[0].object.kind", equalTo("ConfigMap"))
                .body("rows[0].object.data.x", equalTo("1"));
        given().accept(TABLE).queryParam("includeObject", "None").get(configMaps(ns)).then()
                .body("rows[0]", not(hasKey("object")));
        given().accept(TABLE).queryParam("includeObject", "Everything").get(configMaps(ns)).then()
                .statusCode(400).body("reason", equalTo("BadRequest"));
        given().accept("application/json;as=Table;v=v1beta1;g=meta.k8s.io").get(configMaps(ns)).then()
                .body("apiVersion", equalTo("meta.k8s.io/v1beta1"));
        given().accept("application/json;as=Table;v=v2;g=meta.k8s.io").get(configMaps(ns)).then()
                .statusCode(406).body("reason", equalTo("NotAcceptable"));
    }

    @Test
    void aPaginatedTableCarriesTheContinueToken() {
        String ns = newNamespace("tables-pages");
        for (String name : new String[] {"a", "b", "c"}) {
            createOk(configMaps(ns), configMap(name, ""));
        }
        String token = given().accept(TABLE).queryParam("limit", 2).get(configMaps(ns)).then().statusCode(200)
                .body("rows", hasSize(2))
                .body("metadata.remainingItemCount", equalTo(1))
                .extract().path("metadata.continue");
        given().accept(TABLE).queryParam("limit", 2).queryParam("continue", token).get(configMaps(ns)).then()
                .body("rows.cells.collect { it[0] }", contains("c"));
    }

    @Test
    void metadataOnlyClientsGetPartialObjectMetadata() {
        String ns = newNamespace("tables-meta");
        createOk(configMaps(ns), configMap("a", "\"data\":{\"x\":\"1\"}"));
        given().accept("application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json")
                .get(configMaps(ns)).then().statusCode(200)
                .contentType("application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io")
                .body("kind", equalTo("PartialObjectMetadataList"))
                .body("metadata.resourceVersion", notNullValue())
                .body("items[0].kind", equalTo("PartialObjectMetadata"))
                .body("items[0].metadata.name", equalTo("a"))
                .body("items[0]", not(hasKey("data")));
        given().accept("application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io")
                .get(configMaps(ns) + "/a").then().statusCode(200)
                .body("kind", equalTo("PartialObjectMetadata"))
                .body("metadata.namespace", equalTo(ns));
    }

    @Test
    void servicesAndSecretsHaveTheirOwnColumns() {
        String ns = newNamespace("tables-types");
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":"
                + "{\"name\":\"web\"},\"spec\":{\"type\":\"NodePort\",\"clusterIP\":\"10.0.0.7\",\"ports\":[{\"port\":80,"
                + "\"nodePort\":30080},{\"port\":53,\"protocol\":\"UDP\"}],\"selector\":{\"app\":\"web\"}}}")
                .post("/api/v1/namespaces/" + ns + "/services").then().statusCode(201);
        given().accept(TABLE).get("/api/v1/namespaces/" + ns + "/services").then().statusCode(200)
                .body("columnDefinitions.name", contains("Name", "Type", "Cluster-IP", "External-IP", "Port(s)",
                        "Age", "Selector"))
                .body("columnDefinitions.find { it.name == 'Selector' }.priority", equalTo(1))
                .body("rows[0].cells[0..4]", contains("web", "NodePort", "10.0.0.7", "<none>", "80:30080/TCP,53/UDP"))
                .body("rows[0].cells[6]", equalTo("app=web"));
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":"
                + "{\"name\":\"s\"},\"type\":\"kubernetes.io/basic-auth\",\"stringData\":{\"username\":\"u\","
                + "\"password\":\"p\"}}")
                .post("/api/v1/namespaces/" + ns + "/secrets").then().statusCode(201);
        given().accept(TABLE).get("/api/v1/namespaces/" + ns + "/secrets").then().statusCode(200)
                .body("columnDefinitions.name", contains("Name", "Type", "Data", "Age"))
                .body("rows[0].cells[0..2]", contains("s", "kubernetes.io/basic-auth", 2));
    }
}
