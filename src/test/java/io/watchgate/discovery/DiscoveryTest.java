package io.watchgate.discovery;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.types.NameRule;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Discovery as kube-apiserver serves it, legacy and aggregated, following the registry of served types. */
@QuarkusTest
class DiscoveryTest {

    private static final String AGGREGATED_V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    /** What kubectl 1.32 sends for /api and /apis. */
    private static final String KUBECTL_ACCEPT = AGGREGATED_V2
            + ",application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

    @Inject
    ResourceTypes types;

    private static ResourceType gadget(String version) {
        return new ResourceType("gadgets.discovery.test", version, "Gadget", "gadgets", "gadget", false,
                List.of("gd"), NameRule.DNS1123_SUBDOMAIN, Map.of(), false, Map.of(), ResourceType.ALL_VERBS);
    }

    @Test
    void versionReportsTheKubernetesVersionSpoken() {
        given().get("/version").then().statusCode(200)
                .body("major", equalTo("1"))
                .body("minor", equalTo("33"))
                .body("gitVersion", startsWith("v1.33.0"))
                .body("platform", not(nullValue()));
    }

    @Test
    void theCoreGroupListsItsVersionAndResources() {
        given().get("/api").then().statusCode(200)
                .body("kind", equalTo("APIVersions"))
                .body("versions", contains("v1"));
        given().get("/api/v1").then().statusCode(200)
                .body("kind", equalTo("APIResourceList"))
                .body("groupVersion", equalTo("v1"))
                .body("resources.find { it.name == 'configmaps' }.singularName", equalTo("configmap"))
                .body("resources.find { it.name == 'configmaps' }.namespaced", equalTo(true))
                .body("resources.find { it.name == 'configmaps' }.kind", equalTo("ConfigMap"))
                .body("resources.find { it.name == 'configmaps' }.shortNames", contains("cm"))
                .body("resources.find { it.name == 'configmaps' }.verbs", contains("create", "delete",
                        "deletecollection", "get", "list", "patch", "update", "watch"))
                .body("resources.find { it.name == 'configmaps' }.categories", nullValue())
                .body("resources.find { it.name == 'pods' }.categories", contains("all"))
                .body("resources.find { it.name == 'services' }.categories", contains("all"))
                .body("resources.find { it.name == 'namespaces' }.namespaced", equalTo(false))
                .body("resources.find { it.name == 'namespaces' }.verbs", not(hasItem("deletecollection")));
        given().get("/api/v2").then().statusCode(404).body("kind", equalTo("Status"));
    }

    @Test
    void aRegisteredGroupAppearsAtOnceWithItsPreferredVersion() {
        given().get("/apis/gadgets.discovery.test").then().statusCode(404).body("reason", equalTo("NotFound"));
        types.register(gadget("v1beta1"));
        types.register(gadget("v2alpha1"));
        types.register(gadget("v1"));

        given().get("/apis").then().statusCode(200)
                .body("kind", equalTo("APIGroupList"))
                .body("groups.find { it.name == 'gadgets.discovery.test' }.versions.version",
                        contains("v1", "v1beta1", "v2alpha1"))
                .body("groups.find { it.name == 'gadgets.discovery.test' }.preferredVersion.groupVersion",
                        equalTo("gadgets.discovery.test/v1"));
        given().get("/apis/gadgets.discovery.test").then().statusCode(200)
                .body("kind", equalTo("APIGroup"))
                .body("versions[0].groupVersion", equalTo("gadgets.discovery.test/v1"));
        given().get("/apis/gadgets.discovery.test/v1beta1").then().statusCode(200)
                .body("groupVersion", equalTo("gadgets.discovery.test/v1beta1"))
                .body("resources[0].name", equalTo("gadgets"))
                .body("resources[0].namespaced", equalTo(false))
                .body("resources[0].shortNames", contains("gd"));
    }

    @Test
    void kubectlGetsAggregatedDiscoveryForBothRoots() {
        types.register(gadget("v1"));
        given().accept(KUBECTL_ACCEPT).get("/api").then().statusCode(200)
                .contentType(AGGREGATED_V2)
                .body("kind", equalTo("APIGroupDiscoveryList"))
                .body("apiVersion", equalTo("apidiscovery.k8s.io/v2"))
                .body("items", org.hamcrest.Matchers.hasSize(1))
                .body("items[0].metadata.name", equalTo(""))
                .body("items[0].versions[0].version", equalTo("v1"))
                .body("items[0].versions[0].freshness", equalTo("Current"))
                .body("items[0].versions[0].resources.find { it.resource == 'pods' }.responseKind.kind", equalTo("Pod"))
                .body("items[0].versions[0].resources.find { it.resource == 'pods' }.scope", equalTo("Namespaced"))
                .body("items[0].versions[0].resources.find { it.resource == 'pods' }.singularResource", equalTo("pod"))
                .body("items[0].versions[0].resources.find { it.resource == 'namespaces' }.scope", equalTo("Cluster"));
        given().accept(KUBECTL_ACCEPT).get("/apis").then().statusCode(200)
                .contentType(AGGREGATED_V2)
                .body("items.metadata.name", hasItem("gadgets.discovery.test"))
                .body("items.metadata.name", not(hasItem("")));
        given().accept("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList")
                .get("/apis").then().statusCode(200)
                .body("apiVersion", equalTo("apidiscovery.k8s.io/v2beta1"));
        given().accept("application/json").get("/apis").then().statusCode(200)
                .contentType("application/json")
                .body("kind", equalTo("APIGroupList"));
    }
}
