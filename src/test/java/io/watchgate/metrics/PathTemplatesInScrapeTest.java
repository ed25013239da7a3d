package io.watchgate.metrics;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static io.watchgate.metrics.Samples.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Request latencies are tagged with path templates whoever answers: the resource API, the watch route, and the
 * routes that refuse a request before either sees it. Never with a namespace's or an object's name.
 */
@QuarkusTest
class PathTemplatesInScrapeTest {

    @TestHTTPResource(value = "/", management = true)
    URI management;

    private static String histogramCount(String method, String status, String uri) {
        return "http_server_requests_seconds_count{method=\"" + method + "\",outcome=\""
                + (status.startsWith("2") ? "SUCCESS" : "CLIENT_ERROR") + "\",status=\"" + status + "\",uri=\"" + uri
                + "\"}";
    }

    @Test
    void everyRequestBelowAPrefixIsTaggedByItsShape() {
        String ns = newNamespace("templated");
        String object = configMaps(ns) + "/marked-object";
        createOk(configMaps(ns), configMap("marked-object", ""));
        given().get(object).then().statusCode(200);
        given().get(object + "/status").then().statusCode(404);
        given().options(object).then().statusCode(405);
        String tooLarge = "{\"metadata\":{\"name\":\"big\"},\"data\":{\"k\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}}";
        given().contentType(ContentType.JSON).body(tooLarge).post(configMaps(ns)).then().statusCode(413);
        given().get(object + "/a/b/c").then().statusCode(404);
        given().get("/apis/apiextensions.k8s.io/v1").then().statusCode(200);

        String metrics = Samples.scrape(management);
        String named = "/api/{version}/namespaces/{namespace}/{plural}/{name}";
        assertTrue(value(metrics, histogramCount("GET", "200", named)) >= 1);
        assertTrue(value(metrics, histogramCount("GET", "404", named + "/status")) >= 1);
        assertTrue(value(metrics, histogramCount("OPTIONS", "405", named)) >= 1);
        assertTrue(value(metrics, histogramCount("POST", "413", "/api/{version}/namespaces/{namespace}/{plural}")) >= 1);
        assertTrue(value(metrics, histogramCount("GET", "200", "/apis/{group}/{version}")) >= 1);
        List<String> untemplated = metrics.lines().filter(line -> line.startsWith("http_server_requests"))
                .filter(line -> line.contains(ns) || line.contains("marked-object") || line.contains("{prefix}"))
                .toList();
        assertEquals(List.of(), untemplated);
    }
}
