package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What each path names, and which methods it takes, as the request's parse routes it: 404 for a path naming nothing
 * served, 405 for a method what it names does not take, each with a Status.
 */
@QuarkusTest
class ResourceRoutingTest {

    private String ns;
    private String existing;

    @BeforeEach
    void namespaceWithOneConfigMap() {
        ns = newNamespace("routing");
        existing = configMaps(ns) + "/existing";
        createOk(configMaps(ns), configMap("existing", ""));
    }

    private static ValidatableResponse status(int code, String reason, Function<RequestSpecification, Response> request) {
        return request.apply(given().contentType(ContentType.JSON).body("{}")).then().statusCode(code)
                .contentType(ContentType.JSON).body("kind", equalTo("Status")).body("reason", equalTo(reason));
    }

    @Test
    void aNamespacedCollectionAcrossAllNamespacesIsListedButNotWrittenTo() {
        given().get("/api/v1/configmaps").then().statusCode(200).body("kind", equalTo("ConfigMapList"));
        status(405, "MethodNotAllowed", r -> r.post("/api/v1/configmaps"));
        status(405, "MethodNotAllowed", r -> r.delete("/api/v1/configmaps"));
        status(405, "MethodNotAllowed", r -> r.patch("/api/v1/configmaps"));
    }

    @Test
    void subresourcesAreServedOnlyWhereTheTypeHasThem() {
        for (String method : new String[] {"GET", "PUT", "PATCH", "POST", "DELETE"}) {
            status(404, "NotFound", r -> r.request(method, existing + "/status"));
            status(404, "NotFound", r -> r.request(method, existing + "/scale"));
            status(404, "NotFound", r -> r.request(method, "/api/v1/namespaces/" + ns + "/nosuchthings/x/status"));
        }
        status(404, "NotFound", r -> r.get(existing + "/status/more"));
    }

    @Test
    void discoveryDocumentsTakeOnlyGet() {
        given().get("/apis/apiextensions.k8s.io").then().statusCode(200).body("kind", equalTo("APIGroup"));
        status(405, "MethodNotAllowed", r -> r.post("/api"));
        status(405, "MethodNotAllowed", r -> r.post("/api/v1"));
        status(405, "MethodNotAllowed", r -> r.delete("/apis/apiextensions.k8s.io"));
        status(405, "MethodNotAllowed", r -> r.put("/apis/apiextensions.k8s.io/v1"));
        status(404, "NotFound", r -> r.get("/apis/nosuch.example.com"));
        status(404, "NotFound", r -> r.get("/apis/nosuch.example.com/v1"));
    }

    @Test
    void theLegacyWatchSegmentServesWatchesAlone() {
        status(404, "NotFound", r -> r.post("/api/v1/watch/namespaces/" + ns + "/configmaps"));
        status(404, "NotFound", r -> r.delete("/api/v1/watch/namespaces/" + ns + "/configmaps/existing"));
        status(404, "NotFound", r -> r.get("/api/v1/watch/namespaces/" + ns + "/configmaps/existing/status"));
        status(404, "NotFound", r -> r.get("/api/v1/watch"));
    }

    @Test
    void aHeadAskingForAWatchGetsTheListsHead() {
        given().queryParam("watch", "true").head(configMaps(ns)).then().statusCode(200);
    }

    @Test
    void theNamespaceObjectIsNoResourceInsideItself() {
        given().get("/api/v1/namespaces/" + ns).then().statusCode(200).body("kind", equalTo("Namespace"));
        status(404, "NotFound", r -> r.get("/api/v1/namespaces/" + ns + "/namespaces/" + ns));
    }

    @Test
    void namesArePercentDecoded() {
        status(404, "NotFound", r -> r.urlEncodingEnabled(false).get(configMaps(ns) + "/a%3Ab"))
                .body("details.name", equalTo("a:b"));
    }

    @Test
    void pathsThatNameNothingAreNotFound() {
        status(404, "NotFound", r -> r.get(existing + "/a/b/c"));
        status(404, "NotFound", r -> r.put("/api/v1/namespaces//configmaps/existing"));
        status(404, "NotFound", r -> r.get("/api/v1" + "/x".repeat(40)));
    }
}
