package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A type added by a CustomResourceDefinition is served under {@code /apis/{group}/{version}} by the same code
 * as the core types.
 */
@QuarkusTest
class GroupedTypesTest {

    @BeforeEach
    void defineWidgets() {
        int status = given().contentType(ContentType.JSON).body("{\"apiVersion\":\"apiextensions.k8s.io/v1\","
                + "\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":\"widgets.example.com\"},"
                + "\"spec\":{\"group\":\"example.com\",\"scope\":\"Namespaced\",\"names\":{\"plural\":"
                + "\"widgets\",\"kind\":\"Widget\",\"shortNames\":[\"wd\"]},\"versions\":[{\"name\":\"v1\","
                + "\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
                + "\"x-kubernetes-preserve-unknown-fields\":true}}}]}}")
                .post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").statusCode();
        if (status != 201 && status != 409) {
            throw new AssertionError("the widgets definition answered " + status);
        }
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
