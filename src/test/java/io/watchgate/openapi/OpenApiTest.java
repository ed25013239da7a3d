package io.watchgate.openapi;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.types.NameRule;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The OpenAPI documents kubectl reads for explain and to learn that the server validates fields. */
@QuarkusTest
class OpenApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    ResourceTypes types;

    @Test
    void theV3IndexLinksEachGroupVersionsDocumentByHash() throws Exception {
        String url = given().get("/openapi/v3").then().statusCode(200)
                .body("paths.'api/v1'.serverRelativeURL", startsWith("/openapi/v3/api/v1?hash="))
                .extract().path("paths.'api/v1'.serverRelativeURL");
        JsonNode document = JSON.readTree(given().get(url).then().statusCode(200).extract().asString());
        assertEquals("3.0.0", document.path("openapi").asText());

        JsonNode patch = document.path("paths").path("/api/v1/namespaces/{namespace}/configmaps/{name}").path("patch");
        assertEquals("patch", patch.path("x-kubernetes-action").asText());
        assertEquals("ConfigMap", patch.path("x-kubernetes-group-version-kind").path("kind").asText());
        assertTrue(names(patch.path("parameters")).contains("fieldValidation"),
                "kubectl leaves field validation to the server only when PATCH takes fieldValidation");
        assertTrue(patch.path("requestBody").path("content").has("application/strategic-merge-patch+json"));
        assertTrue(patch.path("requestBody").path("content").has("application/apply-patch+yaml"));

        JsonNode configMap = document.path("components").path("schemas").path("io.k8s.api.core.v1.ConfigMap");
        assertTrue(configMap.path("description").asText().startsWith("ConfigMap holds configuration data"));
        assertEquals("ConfigMap", configMap.path("x-kubernetes-group-version-kind").path(0).path("kind").asText());
        assertEquals("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
                configMap.path("properties").path("metadata").path("allOf").path(0).path("$ref").asText());
        assertEveryReferenceResolves(document, "#/components/schemas/", document.path("components").path("schemas"));
        assertTrue(document.path("paths").has("/api/v1/namespaces/{namespace}/pods"));
        assertTrue(document.path("components").path("schemas").has("io.k8s.api.core.v1.PodSpec"));
    }

    @Test
    void theV2DocumentDescribesEveryServedType() throws Exception {
        JsonNode document = JSON.readTree(given().get("/openapi/v2").then().statusCode(200).extract().asString());
        assertEquals("2.0", document.path("swagger").asText());
        assertTrue(document.path("definitions").has("io.k8s.api.core.v1.Secret"));
        assertTrue(document.path("paths").has("/api/v1/namespaces"));
        assertEveryReferenceResolves(document, "#/definitions/", document.path("definitions"));
        given().accept("application/com.github.proto-openapi.spec.v2@v1.0+protobuf").get("/openapi/v2")
                .then().statusCode(406).body("reason", equalTo("NotAcceptable"));
    }

    @Test
    void aRegisteredTypeGetsADocumentThatKeepsAnyField() {
        types.register(new ResourceType("gizmos.openapi.test", "v1", "Gizmo", "gizmos", "gizmo", true, List.of(),
                NameRule.DNS1123_SUBDOMAIN, Map.of(), false, Map.of(), ResourceType.ALL_VERBS));
        String url = given().get("/openapi/v3").then().statusCode(200)
                .body("paths.'apis/gizmos.openapi.test/v1'.serverRelativeURL", notNullValue())
                .extract().path("paths.'apis/gizmos.openapi.test/v1'.serverRelativeURL");
        given().get(url).then().statusCode(200)
                .body("components.schemas.'test.openapi.gizmos.v1.Gizmo'.x-kubernetes-preserve-unknown-fields",
                        equalTo(true))
                .body("paths.keySet()", hasItem("/apis/gizmos.openapi.test/v1/namespaces/{namespace}/gizmos/{name}"))
                .body("paths.'/apis/gizmos.openapi.test/v1/namespaces/{namespace}/gizmos/{name}'.patch.requestBody"
                        + ".content.keySet()", org.hamcrest.Matchers.not(hasItem("application/strategic-merge-patch+json")));
        given().get("/openapi/v3/apis/nothing.here/v1").then().statusCode(404).body("kind", equalTo("Status"));
    }

    private static List<String> names(JsonNode parameters) {
        List<String> names = new ArrayList<>();
        parameters.forEach(p -> names.add(p.path("name").asText()));
        return names;
    }

    private static void assertEveryReferenceResolves(JsonNode node, String prefix, JsonNode definitions) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null) {
                assertTrue(ref.asText().startsWith(prefix), ref.asText());
                assertTrue(definitions.has(ref.asText().substring(prefix.length())), "unresolved " + ref.asText());
            }
            node.elements().forEachRemaining(child -> assertEveryReferenceResolves(child, prefix, definitions));
        } else if (node.isArray()) {
            node.elements().forEachRemaining(child -> assertEveryReferenceResolves(child, prefix, definitions));
        }
    }
}
