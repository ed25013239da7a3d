package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.watchgate.schema.NameRule;
import io.watchgate.schema.ResourceType;
import io.watchgate.schema.ResourceTypes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A type registered as data (as a CustomResourceDefinition will be) is served under
 * {@code /apis/{group}/{version}} by the same code as the core types.
 */
@QuarkusTest
class GroupedTypesTest {

    @Inject
    ResourceTypes types;

    @BeforeEach
    void registerWidgets() {
        types.register(new ResourceType("example.com", "v1", "Widget", "widgets", "widget", true, List.of("wd"),
                NameRule.DNS1123_SUBDOMAIN, Map.of(), false, Map.of(), ResourceType.ALL_VERBS));
    }

    @Test
    void aGroupedTypeHasTheFullApi() {
        String ns = newNamespace("widgets");
        String widgets = "/apis/example.com/v1/namespaces/" + ns + "/widgets";

        given().contentType(ContentType.JSON)
                .body("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},"
                        + "\"spec\":{\"size\":3}}")
                .post(widgets)
                .then().statusCode(201)
                .body("apiVersion", equalTo("example.com/v1"))
                .body("metadata.generation", equalTo(1));
        given().contentType("application/merge-patch+json").body("{\"spec\":{\"size\":4}}")
                .patch(widgets + "/w")
                .then().statusCode(200).body("spec.size", equalTo(4)).body("metadata.generation", equalTo(2));
        given().get("/apis/example.com/v1/widgets").then().statusCode(200)
                .body("kind", equalTo("WidgetList"))
                .body("apiVersion", equalTo("example.com/v1"));
        given().get(widgets + "/missing").then().statusCode(404)
                .body("message", equalTo("widgets.example.com \"missing\" not found"))
                .body("details.group", equalTo("example.com"));
        given().contentType("application/strategic-merge-patch+json").body("{}").patch(widgets + "/w")
                .then().statusCode(415).body("reason", equalTo("UnsupportedMediaType"));
        given().contentType(ContentType.JSON)
                .body("{\"apiVersion\":\"v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"x\"}}")
                .post(widgets).then().statusCode(400);
        given().delete(widgets + "/w").then().statusCode(200);
        given().get(widgets).then().statusCode(200).body("items", hasSize(0));
    }
}
