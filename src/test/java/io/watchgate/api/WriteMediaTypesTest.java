package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.watchgate.metrics.Samples;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A write reads JSON, YAML or protobuf, and nothing else: not a body without a Content-Type, nor the types a page of
 * another site can make a browser send without asking (text/plain, forms). Each is 415 and leaves the store as it was.
 */
@QuarkusTest
class WriteMediaTypesTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** What a cross-site page can send without a preflight: no type at all (a Blob) and the CORS "simple" types. */
    private static final List<String> CROSS_SITE_TYPES = List.of("text/plain;charset=UTF-8",
            "application/x-www-form-urlencoded", "multipart/form-data; boundary=x");

    private String ns;

    @TestHTTPResource(value = "/", management = true)
    URI management;

    @BeforeEach
    void namespace() {
        ns = newNamespace("media");
    }

    @Test
    void aCreateWithoutContentTypeIsRefusedAndCreatesNothing() throws Exception {
        HttpResponse<String> response = send("POST", configMaps(ns), null, configMap("untyped", ""));
        assertUnsupported(response);
        given().get(configMaps(ns) + "/untyped").then().statusCode(404);
    }

    @Test
    void eachRefusalIsCounted() throws Exception {
        String series = "watchgate_refusals_total{reason=\"unsupported-media-type\"}";
        double before = Samples.value(Samples.scrape(management), series);
        assertUnsupported(send("POST", configMaps(ns), null, configMap("counted", "")));
        assertUnsupported(send("PATCH", configMaps(ns) + "/counted", "text/plain", "{}"));
        assertEquals(before + 2, Samples.value(Samples.scrape(management), series));
    }

    @Test
    void aCreateInACrossSiteTypeIsRefusedAndCreatesNothing() throws Exception {
        for (String type : CROSS_SITE_TYPES) {
            assertUnsupported(send("POST", configMaps(ns), type, configMap("cross-site", "")));
            given().get(configMaps(ns) + "/cross-site").then().statusCode(404);
        }
    }

    @Test
    void anUpdateOrPatchWithoutContentTypeChangesNothing() throws Exception {
        createOk(configMaps(ns), configMap("kept", "\"data\":{\"k\":\"v\"}"));
        assertUnsupported(send("PUT", configMaps(ns) + "/kept", null, configMap("kept", "\"data\":{\"k\":\"w\"}")));
        assertUnsupported(send("PATCH", configMaps(ns) + "/kept", null, "{\"data\":{\"k\":\"w\"}}"));
        for (String type : CROSS_SITE_TYPES) {
            assertUnsupported(send("PUT", configMaps(ns) + "/kept", type, configMap("kept", "\"data\":{\"k\":\"w\"}")));
            assertUnsupported(send("PATCH", configMaps(ns) + "/kept", type, "{\"data\":{\"k\":\"w\"}}"));
        }
        given().get(configMaps(ns) + "/kept").then().statusCode(200).body("data.k", equalTo("v"));
    }

    @Test
    void deleteOptionsWithoutContentTypeDeleteNothing() throws Exception {
        createOk(configMaps(ns), configMap("kept", ""));
        assertUnsupported(send("DELETE", configMaps(ns) + "/kept", null, "{\"propagationPolicy\":\"Background\"}"));
        assertUnsupported(send("DELETE", configMaps(ns) + "/kept", "text/plain", "{}"));
        assertUnsupported(send("DELETE", configMaps(ns), null, "{}"));
        given().get(configMaps(ns) + "/kept").then().statusCode(200);
        // without a body the options come from the query, as before; with a typed body they are read
        HttpResponse<String> deleted = send("DELETE", configMaps(ns) + "/kept", "application/json",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"dryRun\":[\"All\"]}");
        assertEquals(200, deleted.statusCode(), deleted.body());
        given().get(configMaps(ns) + "/kept").then().statusCode(200);
        assertEquals(200, send("DELETE", configMaps(ns) + "/kept", null, null).statusCode());
        given().get(configMaps(ns) + "/kept").then().statusCode(404);
    }

    @Test
    void yamlCreatesAndUpdatesAsKubeApiserverReadsIt() {
        given().contentType("application/yaml").body(("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\n"
                + "data:\n  k: v\n  n: \"1\"\n").getBytes()).post(configMaps(ns))
                .then().statusCode(201).body("metadata.name", equalTo("from-yaml")).body("data.k", equalTo("v"));
        given().contentType("application/yaml; charset=utf-8").body(("apiVersion: v1\nkind: ConfigMap\n"
                + "metadata: {name: from-yaml}\ndata: {k: w}\n").getBytes()).put(configMaps(ns) + "/from-yaml")
                .then().statusCode(200).body("data.k", equalTo("w"));
        given().contentType("application/yaml").body("{propagationPolicy: Background}".getBytes())
                .delete(configMaps(ns) + "/from-yaml").then().statusCode(200);
        given().get(configMaps(ns) + "/from-yaml").then().statusCode(404);
    }

    @Test
    void yamlAliasesAreNotExpanded() {
        // a billion-laughs body: each level refers to the one before ten times
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: laughs}\n"
                + "x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            yaml.append("x").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 10; j++) {
                yaml.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            }
            yaml.append("]\n");
        }
        int code = given().contentType("application/yaml").body(yaml.toString().getBytes()).post(configMaps(ns))
                .statusCode();
        assertTrue(code == 201 || code == 400 || code == 422, "answered " + code);
    }

    @Test
    void malformedYamlIsABadRequest() {
        given().contentType("application/yaml").body("metadata: {name: [unclosed\n".getBytes()).post(configMaps(ns))
                .then().statusCode(400).body("reason", equalTo("BadRequest"))
                .body("message", containsString("YAML"));
    }

    @Test
    void theRefusalNamesWhatIsAccepted() throws Exception {
        HttpResponse<String> response = send("POST", configMaps(ns), "text/plain", configMap("x", ""));
        assertUnsupported(response);
        assertTrue(response.body().contains("application/json") && response.body().contains("application/yaml")
                && response.body().contains("Content-Type: text/plain"), response.body());
        given().contentType(ContentType.JSON).body(configMap("typed", "")).post(configMaps(ns)).then().statusCode(201);
    }

    private static void assertUnsupported(HttpResponse<String> response) {
        assertEquals(415, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"reason\":\"UnsupportedMediaType\""), response.body());
    }

    /** A request with exactly the headers given: no client library adds a Content-Type of its own. */
    private static HttpResponse<String> send(String method, String path, String contentType, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
