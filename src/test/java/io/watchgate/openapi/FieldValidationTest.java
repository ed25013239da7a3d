package io.watchgate.openapi;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.watchgate.api.Api;
import java.util.List;
import org.junit.jupiter.api.Test;

/** fieldValidation on writes, checked against the type's schema (kubectl apply sends Strict). */
@QuarkusTest
class FieldValidationTest {

    private static final String WITH_UNKNOWN = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"%s\","
            + "\"bogusMeta\":1},\"data\":{\"x\":\"1\"},\"bogusField\":true}";

    @Test
    void strictRefusesUnknownFieldsAndWritesNothing() {
        String ns = newNamespace("fv-strict");
        given().contentType(ContentType.JSON).body(WITH_UNKNOWN.formatted("a"))
                .post(configMaps(ns) + "?fieldValidation=Strict").then().statusCode(400)
                .body("reason", equalTo("BadRequest"))
                .body("message", equalTo("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict "
                        + "decoding error: unknown field \"bogusField\", unknown field \"metadata.bogusMeta\""));
        given().get(configMaps(ns) + "/a").then().statusCode(404);
    }

    @Test
    void warnCreatesAndSaysWhichFieldsAreUnknown() {
        String ns = newNamespace("fv-warn");
        List<String> warnings = given().contentType(ContentType.JSON).body(WITH_UNKNOWN.formatted("a"))
                .post(configMaps(ns) + "?fieldValidation=Warn").then().statusCode(201)
                .extract().headers().getValues("Warning");
        assertEquals(List.of("299 - \"unknown field \\\"bogusField\\\"\"",
                "299 - \"unknown field \\\"metadata.bogusMeta\\\"\""), warnings);
        given().contentType(ContentType.JSON).body(WITH_UNKNOWN.formatted("b"))
                .post(configMaps(ns) + "?fieldValidation=Ignore").then().statusCode(201)
                .header("Warning", nullValue());
        // either way the object is stored as its type has it: without the unknown fields, as Kubernetes drops them
        for (String name : List.of("a", "b")) {
            given().get(configMaps(ns) + "/" + name).then().statusCode(200)
                    .body("data.x", equalTo("1"))
                    .body("bogusField", nullValue())
                    .body("metadata.bogusMeta", nullValue());
        }
        given().contentType(ContentType.JSON).body(WITH_UNKNOWN.formatted("c"))
                .post(configMaps(ns) + "?fieldValidation=Sometimes").then().statusCode(422)
                .body("reason", equalTo("Invalid"))
                .body("message", containsString("fieldValidation"));
    }

    @Test
    void nestedFieldsAreCheckedThroughTheSchema() {
        String ns = newNamespace("fv-nested");
        given().contentType(ContentType.JSON).body("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
                + "\"labels\":{\"any\":\"label\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\","
                + "\"imagePullPolice\":\"Always\",\"resources\":{\"limits\":{\"cpu\":\"1\"}}}]}}")
                .post("/api/v1/namespaces/" + ns + "/pods?fieldValidation=Strict").then().statusCode(400)
                .body("message", containsString("unknown field \"spec.containers[0].imagePullPolice\""))
                .body("message", org.hamcrest.Matchers.not(containsString("labels")))
                .body("message", org.hamcrest.Matchers.not(containsString("limits")));
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"cm\"}}").post(configMaps(ns))
                .then().statusCode(201);
        given().contentType("application/merge-patch+json").body("{\"datta\":{\"x\":\"1\"}}")
                .patch(configMaps(ns) + "/cm?fieldValidation=Strict").then().statusCode(400)
                .body("message", containsString("unknown field \"datta\""));
        given().contentType("application/strategic-merge-patch+json")
                .body("{\"data\":{\"x\":\"1\"},\"$retainKeys\":[\"data\"]}")
                .patch(configMaps(ns) + "/cm?fieldValidation=Strict").then().statusCode(200);
        // a JSON patch's fields show in the object it makes: that is what is checked
        long before = Api.currentRevision();
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/datta\",\"value\":{\"x\":\"2\"}}]")
                .patch(configMaps(ns) + "/cm?fieldValidation=Strict").then().statusCode(400)
                .body("message", containsString("unknown field \"datta\""));
        assertEquals(before, Api.currentRevision(), "a refused patch writes nothing");
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/datta\",\"value\":{\"x\":\"2\"}}]")
                .patch(configMaps(ns) + "/cm?fieldValidation=Warn").then().statusCode(200)
                .header("Warning", equalTo("299 - \"unknown field \\\"datta\\\"\""))
                .body("datta", nullValue());
        given().contentType("application/json-patch+json")
                .body("[{\"op\":\"add\",\"path\":\"/data/y\",\"value\":\"3\"}]")
                .patch(configMaps(ns) + "/cm?fieldValidation=Strict").then().statusCode(200)
                .body("data.y", equalTo("3"));
    }

    @Test
    void aFieldNameWithControlCharactersStillMakesAValidWarning() {
        String ns = newNamespace("fv-header");
        given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"cm\"},\"bogus\\nx\":1}")
                .post(configMaps(ns) + "?fieldValidation=Warn").then().statusCode(201)
                .header("Warning", equalTo("299 - \"unknown field \\\"bogus?x\\\"\""));
    }
}
