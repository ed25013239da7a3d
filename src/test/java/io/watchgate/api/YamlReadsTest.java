package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** One object read as YAML ({@code Accept: application/yaml}), as kube-apiserver serves it: the same object. */
@QuarkusTest
class YamlReadsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void anObjectReadAsYamlIsTheSameObjectWithItsStringsStillStrings() throws Exception {
        String ns = newNamespace("yaml");
        createOk(configMaps(ns), "{\"metadata\":{\"name\":\"tricky\",\"labels\":{\"on\":\"yes\"}},\"data\":{"
                + "\"number\":\"2\",\"float\":\"1e3\",\"bool\":\"true\",\"nothing\":\"null\",\"tilde\":\"~\","
                + "\"octal\":\"0o17\",\"hex\":\"0x1F\",\"colon\":\"a: b\",\"dash\":\"- x\",\"empty\":\"\","
                + "\"lines\":\"first\\nsecond\\n\",\"unicode\":\"gr\\u00fc\\u00df \\u2603\"}}");
        String path = configMaps(ns) + "/tricky";

        String yaml = given().accept("application/yaml").get(path).then().statusCode(200)
                .contentType("application/yaml").extract().asString();
        JsonNode json = JSON.readTree(given().get(path).then().statusCode(200).extract().asByteArray());
        assertFalse(yaml.startsWith("---"), yaml);
        assertTrue(yaml.contains("name: \"tricky\""), yaml);
        assertEquals(json, YAML.readTree(yaml), "read back, the YAML is the object: every string still a string");
    }

    @Test
    void aListIsNotServedAsYaml() {
        String ns = newNamespace("yaml-list");
        given().accept("application/yaml").get(configMaps(ns)).then().statusCode(406)
                .body("reason", org.hamcrest.Matchers.equalTo("NotAcceptable"));
    }
}
