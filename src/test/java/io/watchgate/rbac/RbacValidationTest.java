package io.watchgate.rbac;

import static io.restassured.RestAssured.given;
import static io.watchgate.rbac.Rbac.object;
import static io.watchgate.rbac.Rbac.post;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.api.Api;
import org.junit.jupiter.api.Test;

/** Roles and bindings are refused as kube-apiserver's rbac validation refuses them: 422, one cause per bad field. */
@QuarkusTest
class RbacValidationTest {

    private static final String ROLE_REF_VIEW = "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
            + "\"kind\":\"ClusterRole\",\"name\":\"view\"}";

    @Test
    void aRuleWithoutVerbsGroupsOrResourcesNamesEachMissingList() {
        String namespace = Api.newNamespace("rbac-rules");
        post(Rbac.roles(namespace), object("Role", "empty-rule", "\"rules\":[{}]"))
                .then().statusCode(422)
                .body("reason", equalTo("Invalid"))
                .body("details.kind", equalTo("Role"))
                .body("details.group", equalTo("rbac.authorization.k8s.io"))
                .body("details.causes.field", contains("rules[0].verbs", "rules[0].apiGroups", "rules[0].resources"))
                .body("details.causes.reason", contains("FieldValueRequired", "FieldValueRequired",
                        "FieldValueRequired"))
                .body("message", equalTo("Role.rbac.authorization.k8s.io \"empty-rule\" is invalid: ["
                        + "rules[0].verbs: Required value: verbs must contain at least one value, "
                        + "rules[0].apiGroups: Required value: resource rules must supply at least one api group, "
                        + "rules[0].resources: Required value: resource rules must supply at least one resource]"));
    }

    @Test
    void aNamespacedRuleCannotNameNonResourceUrls() {
        String namespace = Api.newNamespace("rbac-urls");
        post(Rbac.roles(namespace), object("Role", "urls", "\"rules\":[{\"verbs\":[\"get\"],"
                + "\"nonResourceURLs\":[\"/healthz\"],\"resources\":[\"pods\"]}]"))
                .then().statusCode(422)
                .body("details.causes.field", contains("rules[0].nonResourceURLs", "rules[0].nonResourceURLs"))
                .body("details.causes.message", contains(
                        "Invalid value: []string{\"/healthz\"}: namespaced rules cannot apply to non-resource URLs",
                        "Invalid value: []string{\"/healthz\"}: rules cannot apply to both regular resources and "
                                + "non-resource URLs"));
    }

    @Test
    void aPutCreatesARoleThatIsNotThereYetAndIsValidatedAsACreate() {
        String namespace = Api.newNamespace("rbac-put");
        String role = object("Role", "put-made", "\"rules\":[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],"
                + "\"resources\":[\"configmaps\"]}]");
        Rbac.put(Rbac.roles(namespace) + "/put-made", role).then().statusCode(201);
        Rbac.put(Rbac.roles(namespace) + "/put-made", role.replace("\"get\"", "\"get\",\"list\"")).then()
                .statusCode(200).body("rules[0].verbs", contains("get", "list"));
        Rbac.put(Rbac.roles(namespace) + "/put-invalid", object("Role", "put-invalid", "\"rules\":[{}]"))
                .then().statusCode(422);
        given().get(Rbac.roles(namespace) + "/put-invalid").then().statusCode(404);
    }

    @Test
    void aClusterRoleMayNameNonResourceUrls() {
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "test:health-reader",
                "\"rules\":[{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/healthz\"]}]"))
                .then().statusCode(201);
    }

    @Test
    void anAggregationRuleNeedsASelectorAndValidOnes() {
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "test:no-selectors", "\"aggregationRule\":{}"))
                .then().statusCode(422)
                .body("details.causes[0].field", equalTo("aggregationRule.clusterRoleSelectors"))
                .body("details.causes[0].message", equalTo("Required value: at least one clusterRoleSelector "
                        + "required if aggregationRule is non-nil"));
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "test:bad-selector", "\"aggregationRule\":{"
                + "\"clusterRoleSelectors\":[{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\"}]}]}"))
                .then().statusCode(422)
                .body("details.causes[0].field", equalTo("aggregationRule.clusterRoleSelectors[0]"
                        + ".matchExpressions[0].values"))
                .body("details.causes[0].message", equalTo("Required value: must be specified when `operator` is "
                        + "'In' or 'NotIn'"));
    }

    @Test
    void aRoleRefNamesARoleOfAKindTheBindingMayGrant() {
        post(Rbac.CLUSTER_ROLE_BINDINGS, object("ClusterRoleBinding", "test:binds-a-role",
                "\"roleRef\":{\"apiGroup\":\"example.com\",\"kind\":\"Role\",\"name\":\"a/b\"}"))
                .then().statusCode(422)
                .body("details.causes.field", contains("roleRef.apiGroup", "roleRef.kind", "roleRef.name"))
                .body("details.causes.reason", contains("FieldValueNotSupported", "FieldValueNotSupported",
                        "FieldValueInvalid"))
                .body("details.causes.message", contains(
                        "Unsupported value: \"example.com\": supported values: \"rbac.authorization.k8s.io\"",
                        "Unsupported value: \"Role\": supported values: \"ClusterRole\"",
                        "Invalid value: \"a/b\": may not contain '/'"));
        String namespace = Api.newNamespace("rbac-roleref");
        post(Rbac.roleBindings(namespace), object("RoleBinding", "no-name",
                "\"roleRef\":{\"kind\":\"Secret\"}"))
                .then().statusCode(422)
                .body("details.causes.field", contains("roleRef.kind", "roleRef.name"))
                .body("details.causes.message", contains(
                        "Unsupported value: \"Secret\": supported values: \"Role\", \"ClusterRole\"",
                        "Required value"));
    }

    @Test
    void subjectsAreUsersGroupsOrServiceAccounts() {
        post(Rbac.CLUSTER_ROLE_BINDINGS, object("ClusterRoleBinding", "test:odd-subjects", ROLE_REF_VIEW
                + ",\"subjects\":[{\"kind\":\"Robot\",\"name\":\"r2\"},"
                + "{\"kind\":\"ServiceAccount\",\"name\":\"Bad_Name\",\"apiGroup\":\"rbac.authorization.k8s.io\"},"
                + "{\"kind\":\"User\",\"name\":\"alice\",\"apiGroup\":\"example.com\"},"
                + "{\"kind\":\"Group\"}]"))
                .then().statusCode(422)
                .body("details.causes.field", contains("subjects[0].kind", "subjects[1].name",
                        "subjects[1].apiGroup", "subjects[1].namespace", "subjects[2].apiGroup",
                        "subjects[3].name"))
                .body("details.causes[0].message", equalTo("Unsupported value: \"Robot\": supported values: "
                        + "\"ServiceAccount\", \"User\", \"Group\""))
                .body("details.causes[2].message", equalTo("Unsupported value: \"rbac.authorization.k8s.io\": "
                        + "supported values: \"\""));
    }

    @Test
    void usersAndGroupsWithoutAnApiGroupAreDefaultedToRbac() {
        String namespace = Api.newNamespace("rbac-defaults");
        post(Rbac.roleBindings(namespace), object("RoleBinding", "alice-views",
                "\"roleRef\":{\"kind\":\"ClusterRole\",\"name\":\"view\"},"
                        + "\"subjects\":[{\"kind\":\"User\",\"name\":\"alice\"},"
                        + "{\"kind\":\"ServiceAccount\",\"name\":\"robot\",\"namespace\":\"" + namespace + "\"}]"))
                .then().statusCode(201)
                .body("roleRef.apiGroup", equalTo("rbac.authorization.k8s.io"))
                .body("subjects[0].apiGroup", equalTo("rbac.authorization.k8s.io"))
                .body("subjects[1].apiGroup", equalTo(null));
    }

    @Test
    void aBindingsRoleRefCannotChange() {
        String namespace = Api.newNamespace("rbac-immutable");
        String path = Rbac.roleBindings(namespace) + "/readers";
        post(Rbac.roleBindings(namespace), object("RoleBinding", "readers", ROLE_REF_VIEW)).then().statusCode(201);
        Rbac.put(path, object("RoleBinding", "readers", "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                + "\"kind\":\"ClusterRole\",\"name\":\"edit\"}"))
                .then().statusCode(422)
                .body("details.causes[0].field", equalTo("roleRef"))
                .body("details.causes[0].message", equalTo("Invalid value: rbac.RoleRef{APIGroup:"
                        + "\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef"));
        given().contentType("application/merge-patch+json").body("{\"subjects\":[{\"kind\":\"Group\","
                + "\"name\":\"devs\"}]}").patch(path)
                .then().statusCode(200)
                .body("roleRef.name", equalTo("view"))
                .body("subjects[0].apiGroup", equalTo("rbac.authorization.k8s.io"));
    }

    @Test
    void namesAreUrlPathSegments() {
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "test:Colons_and.CAPS", "")).then().statusCode(201)
                .body("metadata.name", equalTo("test:Colons_and.CAPS"));
        given().get(Rbac.CLUSTER_ROLES + "/test:Colons_and.CAPS").then().statusCode(200);
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "..", "")).then().statusCode(422)
                .body("details.causes[0].field", equalTo("metadata.name"))
                .body("details.causes[0].message", equalTo("Invalid value: \"..\": may not be '..'"));
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "100%", "")).then().statusCode(422)
                .body("details.causes[0].message", equalTo("Invalid value: \"100%\": may not contain '%'"));
        post(Rbac.CLUSTER_ROLES, "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"generateName\":\"test:generated:\"}}")
                .then().statusCode(201)
                .body("metadata.name", org.hamcrest.Matchers.startsWith("test:generated:"));
        post(Rbac.CLUSTER_ROLES, "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"generateName\":\"a/\"}}")
                .then().statusCode(422)
                .body("details.causes.field", hasItem("metadata.generateName"));
    }

    @Test
    void thousandsOfBadRulesCostAFewDozenCauses() {
        String rules = String.join(",", java.util.Collections.nCopies(5000, "{}"));
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "test:many-bad-rules", "\"rules\":[" + rules + "]"))
                .then().statusCode(422)
                .body("details.causes.size()", equalTo(io.watchgate.status.Causes.MAX))
                .body("details.causes[31].field", equalTo("rules[10].apiGroups")); // three for each rule
        given().get(Rbac.CLUSTER_ROLES + "/test:many-bad-rules").then().statusCode(404);
    }

    @Test
    void fieldsOfTheWrongTypeAreABadRequest() {
        post(Rbac.CLUSTER_ROLES, object("ClusterRole", "test:typed", "\"rules\":[{\"verbs\":\"get\"}]"))
                .then().statusCode(400)
                .body("reason", equalTo("BadRequest"));
    }
}
