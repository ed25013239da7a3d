package io.watchgate.reviews;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The questions clients put to the server about access, answered as kube-apiserver answers them: {@code kubectl auth
 * can-i} (SelfSubjectAccessReview, and SelfSubjectRulesReview for {@code --list}), {@code kubectl auth whoami}
 * (SelfSubjectReview), an administrator's "may they" (SubjectAccessReview, LocalSubjectAccessReview) and TokenReview.
 * Every authenticated user may ask about themselves (the default ClusterRole system:basic-user); only those granted
 * more may ask about others.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class AccessReviewsTest {

    private static final String AUTHORIZATION = "/apis/authorization.k8s.io/v1/";
    private static final AtomicInteger RUNS = new AtomicInteger();

    private String namespace;

    @BeforeEach
    void aliceReadsConfigMapsInHerNamespace() {
        namespace = "reviews-" + RUNS.incrementAndGet();
        Users.ADMIN.created("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}");
        Users.ADMIN.created("/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/roles",
                "{\"metadata\":{\"name\":\"reader\"},\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],"
                        + "\"verbs\":[\"get\",\"list\",\"watch\"]}]}");
        Users.ADMIN.created("/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/rolebindings",
                "{\"metadata\":{\"name\":\"alice\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":"
                        + "\"Role\",\"name\":\"reader\"},\"subjects\":[{\"kind\":\"User\",\"name\":\"alice\"}]}");
    }

    @Test
    void canIAnswersForTheSenderFromItsAttributes() {
        JsonPath allowed = review(Users.ALICE, "selfsubjectaccessreviews", "{\"apiVersion\":\"authorization.k8s.io/v1\","
                + "\"kind\":\"SelfSubjectAccessReview\",\"spec\":{\"resourceAttributes\":{\"namespace\":\"" + namespace
                + "\",\"verb\":\"list\",\"resource\":\"configmaps\"}}}");
        assertEquals(true, allowed.get("status.allowed"));
        assertEquals("SelfSubjectAccessReview", allowed.get("kind"));
        assertEquals("list", allowed.get("spec.resourceAttributes.verb"), "the review is sent back, answered");
        JsonPath denied = review(Users.ALICE, "selfsubjectaccessreviews", "{\"spec\":{\"resourceAttributes\":{"
                + "\"namespace\":\"" + namespace + "\",\"verb\":\"create\",\"resource\":\"configmaps\"}}}");
        assertEquals(false, denied.get("status.allowed"));
        JsonPath path = review(Users.ALICE, "selfsubjectaccessreviews", "{\"spec\":{\"nonResourceAttributes\":{"
                + "\"verb\":\"get\",\"path\":\"/version\"}}}");
        assertEquals(true, path.get("status.allowed"), "system:public-info-viewer grants /version to everyone");
        JsonPath master = review(Users.ADMIN, "selfsubjectaccessreviews", "{\"spec\":{\"resourceAttributes\":{"
                + "\"verb\":\"delete\",\"resource\":\"namespaces\"}}}");
        assertEquals(true, master.get("status.allowed"));
    }

    @Test
    void aReviewAsksAboutExactlyOneKindOfRequest() {
        Users.ALICE.request().body("{\"spec\":{}}").post(AUTHORIZATION + "selfsubjectaccessreviews").then()
                .statusCode(422).body("reason", equalTo("Invalid"))
                .body("message", equalTo("SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid:"
                        + " spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or"
                        + " resourceAttributes must be specified"));
        Users.ALICE.request().body("{\"spec\":{\"resourceAttributes\":{},\"nonResourceAttributes\":{}}}")
                .post(AUTHORIZATION + "selfsubjectaccessreviews").then().statusCode(422)
                .body("details.causes[0].field", equalTo("spec.nonResourceAttributes"));
        Users.ALICE.request().body("[]").post(AUTHORIZATION + "selfsubjectaccessreviews").then().statusCode(400);
    }

    @Test
    void aReviewIsNeitherStoredNorReadable() {
        Users.ADMIN.request().get(AUTHORIZATION + "selfsubjectaccessreviews").then().statusCode(405);
        Users.ADMIN.request().get(AUTHORIZATION + "selfsubjectaccessreviews/x").then().statusCode(405);
        Users.ADMIN.request().delete(AUTHORIZATION + "selfsubjectaccessreviews/x").then().statusCode(405);
    }

    @Test
    void canIListShowsTheSendersRulesInANamespace() {
        JsonPath rules = review(Users.ALICE, "selfsubjectrulesreviews", "{\"spec\":{\"namespace\":\"" + namespace
                + "\"}}");
        List<Map<String, Object>> resourceRules = rules.getList("status.resourceRules");
        assertTrue(resourceRules.contains(Map.of("verbs", List.of("get", "list", "watch"), "apiGroups", List.of(""),
                "resources", List.of("configmaps"))), resourceRules.toString());
        assertTrue(resourceRules.stream().anyMatch(rule -> ((List<?>) rule.get("resources"))
                .contains("selfsubjectaccessreviews")), "system:basic-user's rules: " + resourceRules);
        assertTrue(rules.getList("status.nonResourceRules").stream().anyMatch(rule -> ((List<?>) ((Map<?, ?>) rule)
                .get("nonResourceURLs")).contains("/version")));
        assertEquals(false, rules.get("status.incomplete"));
        JsonPath elsewhere = review(Users.ALICE, "selfsubjectrulesreviews", "{\"spec\":{\"namespace\":\"default\"}}");
        assertTrue(elsewhere.getList("status.resourceRules").stream()
                .noneMatch(rule -> ((List<?>) ((Map<?, ?>) rule).get("resources")).contains("configmaps")));
    }

    @Test
    void aRulesReviewNamesItsNamespace() {
        Users.ALICE.request().body("{\"spec\":{}}").post(AUTHORIZATION + "selfsubjectrulesreviews").then()
                .statusCode(400).body("message", org.hamcrest.Matchers.equalTo("no namespace on request"));
    }

    @Test
    void whoAmI() {
        JsonPath me = review(Users.BOB, "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}");
        assertEquals("bob", me.get("status.userInfo.username"));
        assertEquals(List.of("ops", "devs", "system:authenticated"), me.getList("status.userInfo.groups"));
    }

    @Test
    void anAdministratorAsksAboutOthers() {
        String question = "{\"spec\":{\"user\":\"alice\",\"groups\":[\"devs\",\"system:authenticated\"],"
                + "\"resourceAttributes\":{\"namespace\":\"" + namespace + "\",\"verb\":\"watch\","
                + "\"resource\":\"configmaps\"}}}";
        assertEquals(true, review(Users.ADMIN, "subjectaccessreviews", question).get("status.allowed"));
        assertEquals(false, review(Users.ADMIN, "subjectaccessreviews", question.replace("alice", "bob"))
                .get("status.allowed"));
        Users.ALICE.request().body(question).post(AUTHORIZATION + "subjectaccessreviews").then().statusCode(403)
                .body("message", equalTo("subjectaccessreviews.authorization.k8s.io is forbidden: User \"alice\""
                        + " cannot create resource \"subjectaccessreviews\" in API group \"authorization.k8s.io\" at"
                        + " the cluster scope"));
        Users.ADMIN.request().body("{\"spec\":{\"resourceAttributes\":{\"verb\":\"get\"}}}")
                .post(AUTHORIZATION + "subjectaccessreviews").then().statusCode(422)
                .body("details.causes[0].field", equalTo("spec.user"));
        assertEquals(true, review(Users.ADMIN, "namespaces/" + namespace + "/localsubjectaccessreviews", question)
                .get("status.allowed"));
        Users.ADMIN.request().body(question).post(AUTHORIZATION + "namespaces/default/localsubjectaccessreviews")
                .then().statusCode(422).body("details.causes[0].field", equalTo("spec.resourceAttributes.namespace"));
    }

    @Test
    void aTokenReviewSaysWhoseATokenIsAndNeverSendsItBack() {
        JsonPath known = review(Users.ADMIN, "/apis/authentication.k8s.io/v1/tokenreviews",
                "{\"spec\":{\"token\":\"" + Users.CAROL.token() + "\"}}");
        assertEquals(true, known.get("status.authenticated"));
        assertEquals("carol", known.get("status.user.username"));
        assertEquals(null, known.getString("spec.token"));
        assertEquals(false, review(Users.ADMIN, "/apis/authentication.k8s.io/v1/tokenreviews",
                "{\"spec\":{\"token\":\"nobody\"}}").get("status.authenticated"));
        Users.CAROL.request().body("{\"spec\":{\"token\":\"x\"}}").post("/apis/authentication.k8s.io/v1/tokenreviews")
                .then().statusCode(403);
    }

    private static JsonPath review(Users user, String resource, String body) {
        String path = resource.startsWith("/") ? resource : AUTHORIZATION + resource;
        Response response = user.request().body(body).post(path);
        assertEquals(201, response.statusCode(), response.asString());
        return response.jsonPath();
    }

}
