package io.watchgate.protobuf;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;

import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Creates and updates in protobuf, as kubectl's typed commands and client-go send them. */
@QuarkusTest
class ProtobufBodiesTest {

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

    private static byte[] configMap(String name, String value) {
        return Envelopes.wrap("ConfigMap", V1.ConfigMap.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName(name)).putData("k", value).build());
    }

    @Test
    void aProtobufCreateAndUpdateAnswerJsonToAJsonClient() throws Exception {
        String ns = newNamespace("protobuf");
        given().contentType(PROTOBUF).accept("application/json").body(configMap("a", "1"))
                .post(configMaps(ns) + "?fieldValidation=Strict").then().statusCode(201)
                .contentType("application/json")
                .body("data.k", equalTo("1"))
                .body("metadata.namespace", equalTo(ns));
        given().contentType(PROTOBUF).body(configMap("a", "2")).put(configMaps(ns) + "/a").then().statusCode(200)
                .body("data.k", equalTo("2"));
        given().contentType(PROTOBUF).body("{\"metadata\":{\"name\":\"b\"}}".getBytes()).post(configMaps(ns)).then()
                .statusCode(400).body("reason", equalTo("BadRequest"));
        given().contentType(PROTOBUF).body(configMap("x", "1"))
                .post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").then().statusCode(415)
                .body("reason", equalTo("UnsupportedMediaType"));
    }
}
