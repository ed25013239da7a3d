package io.watchgate.rbac;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.objects.ObjectWrites;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/** kube-apiserver's default roles and bindings exist from the first start on, as its bootstrap policy makes them. */
@QuarkusTest
class BootstrapPolicyTest {

    @Inject
    BootstrapPolicy policy;
    @Inject
    Store store;
    @Inject
    ObjectWrites writes;

    @Test
    void theDefaultClusterRolesExistAndAreMarkedAsDefaults() {
        given().get(Rbac.CLUSTER_ROLES).then().statusCode(200)
                .body("items.metadata.name", hasItems("cluster-admin", "admin", "edit", "view",
                        "system:aggregate-to-admin", "system:aggregate-to-edit", "system:aggregate-to-view",
                        "system:discovery", "system:basic-user", "system:public-info-viewer"));
        given().get(Rbac.CLUSTER_ROLES + "/cluster-admin").then().statusCode(200)
                .body("metadata.labels.'kubernetes.io/bootstrapping'", equalTo("rbac-defaults"))
                .body("metadata.annotations.'rbac.authorization.kubernetes.io/autoupdate'", equalTo("true"))
                .body("rules[0].verbs", contains("*")).body("rules[0].apiGroups", contains("*"))
                .body("rules[0].resources", contains("*")).body("rules[1].nonResourceURLs", contains("*"));
        given().get(Rbac.CLUSTER_ROLES + "/system:basic-user").then().statusCode(200)
                .body("rules[0].apiGroups", contains("authorization.k8s.io"))
                .body("rules[0].resources", contains("selfsubjectaccessreviews", "selfsubjectrulesreviews"))
                .body("rules[1].apiGroups", contains("authentication.k8s.io"))
                .body("rules[1].resources", contains("selfsubjectreviews"));
        given().get(Rbac.CLUSTER_ROLES + "/view").then().statusCode(200)
                .body("aggregationRule.clusterRoleSelectors[0].matchLabels."
                        + "'rbac.authorization.k8s.io/aggregate-to-view'", equalTo("true"))
                .body("metadata.labels.'rbac.authorization.k8s.io/aggregate-to-edit'", equalTo("true"));
    }

    @Test
    void theDefaultBindingsGrantMastersEverythingAndEveryoneDiscovery() {
        given().get(Rbac.CLUSTER_ROLE_BINDINGS + "/cluster-admin").then().statusCode(200)
                .body("roleRef.kind", equalTo("ClusterRole")).body("roleRef.name", equalTo("cluster-admin"))
                .body("subjects.kind", contains("Group")).body("subjects.name", contains("system:masters"))
                .body("subjects.apiGroup", contains("rbac.authorization.k8s.io"));
        given().get(Rbac.CLUSTER_ROLE_BINDINGS + "/system:discovery").then().statusCode(200)
                .body("subjects.name", contains("system:authenticated"));
        given().get(Rbac.CLUSTER_ROLE_BINDINGS + "/system:basic-user").then().statusCode(200)
                .body("subjects.name", contains("system:authenticated"));
        given().get(Rbac.CLUSTER_ROLE_BINDINGS + "/system:public-info-viewer").then().statusCode(200)
                .body("roleRef.name", equalTo("system:public-info-viewer"))
                .body("subjects.name", contains("system:authenticated", "system:unauthenticated"))
                .body("metadata.labels.'kubernetes.io/bootstrapping'", equalTo("rbac-defaults"));
    }

    @Test
    void aDeletedDefaultComesBackAtTheNextStartAndAChangedOneIsLeftAlone() {
        given().delete(Rbac.CLUSTER_ROLE_BINDINGS + "/system:basic-user").then().statusCode(200);
        given().contentType("application/merge-patch+json")
                .body("{\"metadata\":{\"annotations\":{\"rbac.authorization.kubernetes.io/autoupdate\":\"false\"}}}")
                .patch(Rbac.CLUSTER_ROLES + "/system:public-info-viewer").then().statusCode(200);
        policy.ensure(null, store, writes); // what the next start does
        given().get(Rbac.CLUSTER_ROLE_BINDINGS + "/system:basic-user").then().statusCode(200)
                .body("subjects.name", contains("system:authenticated"));
        given().get(Rbac.CLUSTER_ROLES + "/system:public-info-viewer").then().statusCode(200)
                .body("metadata.annotations.'rbac.authorization.kubernetes.io/autoupdate'", equalTo("false"));
    }
}
