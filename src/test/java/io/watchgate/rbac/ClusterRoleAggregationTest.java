package io.watchgate.rbac;

import static io.restassured.RestAssured.given;
import static io.watchgate.rbac.Rbac.eventually;
import static io.watchgate.rbac.Rbac.object;
import static io.watchgate.rbac.Rbac.post;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Aggregated ClusterRoles hold the rules of the roles they select, as kube's ClusterRoleAggregationController keeps
 * them: admin, edit and view from the start, and a CRD author's "aggregate-to-view" role extends them while it lasts.
 */
@QuarkusTest
class ClusterRoleAggregationTest {

    private static final String WIDGET_RULE = "{\"verbs\":[\"get\",\"list\",\"watch\"],"
            + "\"apiGroups\":[\"example.com\"],\"resources\":[\"widgets\"]}";

    @Test
    void viewEditAndAdminHoldTheirAggregatedRulesFromTheStart() {
        eventually("view aggregated", () -> hasRule("view", "", "configmaps", "get"));
        List<Map<String, Object>> view = rules("view");
        assertEquals(rules("system:aggregate-to-view"), view, "view is exactly system:aggregate-to-view's rules");
        assertFalse(view.toString().contains("secrets"), "view never reads secrets: " + view);
        eventually("edit aggregated", () -> hasRule("edit", "", "secrets", "create"));
        assertTrue(hasRule("edit", "", "configmaps", "get"), "edit includes view: " + rules("edit"));
        eventually("admin aggregated", () -> hasRule("admin", "rbac.authorization.k8s.io", "rolebindings", "create"));
        assertTrue(hasRule("admin", "authorization.k8s.io", "localsubjectaccessreviews", "create"));
        assertTrue(hasRule("admin", "", "secrets", "create"), "admin includes edit: " + rules("admin"));
    }

    @Test
    void aCrdAuthorsRoleLabelledAggregateToViewExtendsViewEditAndAdminUntilItGoes() {
        post(Rbac.CLUSTER_ROLES, "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"name\":\"widgets-view\",\"labels\":{"
                + "\"rbac.authorization.k8s.io/aggregate-to-view\":\"true\"}},\"rules\":[" + WIDGET_RULE + "]}")
                .then().statusCode(201);
        eventually("view extended", () -> hasRule("view", "example.com", "widgets", "list"));
        eventually("edit extended through view", () -> hasRule("edit", "example.com", "widgets", "list"));
        eventually("admin extended through edit", () -> hasRule("admin", "example.com", "widgets", "list"));

        given().delete(Rbac.CLUSTER_ROLES + "/widgets-view").then().statusCode(200);
        eventually("view shrunk", () -> !hasRule("view", "example.com", "widgets", "list"));
        eventually("admin shrunk", () -> !hasRule("admin", "example.com", "widgets", "list"));
        assertEquals(rules("system:aggregate-to-view"), rules("view"));
    }

    @Test
    void anAggregatedRoleTakesEachRuleOnceInTheOrderOfItsSelectorsAndRoleNames() {
        String rule = "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}";
        post(Rbac.CLUSTER_ROLES, "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"name\":\"test-agg-b\",\"labels\":{\"test-agg\":\"yes\"}},\"rules\":[" + rule + ","
                + WIDGET_RULE + "]}").then().statusCode(201);
        post(Rbac.CLUSTER_ROLES, "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"name\":\"test-agg-a\",\"labels\":{\"test-agg\":\"yes\"}},\"rules\":["
                + "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"resourceNames\":[]}]}")
                .then().statusCode(201);
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "test-agg", "\"aggregationRule\":{\"clusterRoleSelectors\":"
                + "[{\"matchExpressions\":[{\"key\":\"test-agg\",\"operator\":\"Exists\"}]}]},"
                + "\"rules\":[{\"verbs\":[\"delete\"],\"apiGroups\":[\"\"],\"resources\":[\"secrets\"]}]"))
                .then().statusCode(201);
        eventually("test-agg aggregated", () -> rules("test-agg").size() == 2);
        List<Map<String, Object>> rules = rules("test-agg");
        assertEquals(List.of("pods"), rules.get(0).get("resources"), "test-agg-a's rule first: " + rules);
        assertEquals(List.of("widgets"), rules.get(1).get("resources"), "the same pods rule once: " + rules);
        String revision = given().get(Rbac.CLUSTER_ROLES + "/test-agg").then().extract()
                .path("metadata.resourceVersion");
        // an unrelated ClusterRole change sets off a pass; it writes nothing to test-agg, since nothing changed. A
        // pass covers every aggregated role: once it has filled the sentinel, it has been through test-agg too
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "test-sentinel", "\"aggregationRule\":{"
                + "\"clusterRoleSelectors\":[{\"matchLabels\":{\"test-sentinel\":\"yes\"}}]}"))
                .then().statusCode(201);
        post(Rbac.CLUSTER_ROLES, "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"name\":\"test-sentinel-source\",\"labels\":{\"test-sentinel\":\"yes\"}},"
                + "\"rules\":[" + WIDGET_RULE + "]}").then().statusCode(201);
        eventually("a pass after the change", () -> rules("test-sentinel").size() == 1);
        given().get(Rbac.CLUSTER_ROLES + "/test-agg").then().body("metadata.resourceVersion", equalTo(revision));
    }

    private static List<Map<String, Object>> rules(String role) {
        JsonPath body = given().get(Rbac.CLUSTER_ROLES + "/" + role).then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> rules = body.getList("rules");
        return rules == null ? List.of() : rules;
    }

    @SuppressWarnings("unchecked")
    private static boolean hasRule(String role, String group, String resource, String verb) {
        return rules(role).stream().anyMatch(rule -> ((List<String>) rule.getOrDefault("apiGroups", List.of()))
                .contains(group) && ((List<String>) rule.getOrDefault("resources", List.of())).contains(resource)
                && ((List<String>) rule.get("verbs")).contains(verb));
    }
}
