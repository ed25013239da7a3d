package io.watchgate.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What each user may do, as RBAC grants it: three users, a few Roles and bindings, and every verb on namespaced and
 * cluster-scoped resources, allowed or refused with kube-apiserver's exact 403.
 *
 * <ul>
 * <li>alice reads configmaps in namespace A (a Role bound to her there), nothing else;
 * <li>bob, through his group {@code ops}, writes secrets in namespace B (a ClusterRole bound in B), but may not list
 *     them;
 * <li>carol reads namespaces, and the configmap named {@code shared} in any namespace (a ClusterRoleBinding).
 * </ul>
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class AccessMatrixTest {

    private static final AtomicInteger RUNS = new AtomicInteger();

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TestHTTPResource("/")
    URL url;

    private String a;
    private String b;

    @BeforeEach
    void policy() {
        int run = RUNS.incrementAndGet();
        a = "matrix-a-" + run;
        b = "matrix-b-" + run;
        for (String namespace : new String[] { a, b }) {
            Users.ADMIN.created("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}");
        }
        Users.ADMIN.created(roles(a), Rbac.role("cm-reader", Rbac.rule("", "configmaps", "get,list,watch")));
        Users.ADMIN.created(roleBindings(a), Rbac.roleBinding("alice-reads", "Role", "cm-reader", "User:alice"));
        Users.ADMIN.created("/apis/rbac.authorization.k8s.io/v1/clusterroles", Rbac.clusterRole(
                "secret-writer-" + run, Rbac.rule("", "secrets", "get,create,update,patch,delete,deletecollection")));
        Users.ADMIN.created(roleBindings(b), Rbac.roleBinding("ops-write-secrets", "ClusterRole",
                "secret-writer-" + run, "Group:ops"));
        Users.ADMIN.created("/apis/rbac.authorization.k8s.io/v1/clusterroles", Rbac.clusterRole(
                "ns-reader-" + run, Rbac.rule("", "namespaces", "get,list,watch"),
                Rbac.rule("", "configmaps", "get,list", "shared")));
        Users.ADMIN.created("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", Rbac.clusterRoleBinding(
                "carol-reads-" + run, "ns-reader-" + run, "User:carol"));
        for (String namespace : new String[] { a, b }) {
            Users.ADMIN.created(configMaps(namespace), configMap("shared"));
            Users.ADMIN.created(configMaps(namespace), configMap("other"));
        }
    }

    @Test
    void aliceReadsConfigMapsInHerNamespaceOnly() {
        allowed(Users.ALICE.request().get(configMaps(a) + "/other"), 200);
        allowed(Users.ALICE.request().get(configMaps(a)), 200);
        allowed(Users.ALICE.request().get(configMaps(a) + "?watch=true&timeoutSeconds=1"), 200);
        forbidden(Users.ALICE.request().body(configMap("new")).post(configMaps(a)),
                "configmaps is forbidden: User \"alice\" cannot create resource \"configmaps\" in API group \"\""
                        + " in the namespace \"" + a + "\"");
        forbidden(Users.ALICE.request().body(configMap("other")).put(configMaps(a) + "/other"),
                "configmaps \"other\" is forbidden: User \"alice\" cannot update resource \"configmaps\" in API"
                        + " group \"\" in the namespace \"" + a + "\"");
        forbidden(Users.ALICE.request().contentType("application/merge-patch+json").body("{\"data\":{}}")
                .patch(configMaps(a) + "/other"), "configmaps \"other\" is forbidden: User \"alice\" cannot patch"
                        + " resource \"configmaps\" in API group \"\" in the namespace \"" + a + "\"");
        forbidden(Users.ALICE.request().delete(configMaps(a) + "/other"), "configmaps \"other\" is forbidden: User"
                + " \"alice\" cannot delete resource \"configmaps\" in API group \"\" in the namespace \"" + a + "\"");
        forbidden(Users.ALICE.request().delete(configMaps(a)), "configmaps is forbidden: User \"alice\" cannot"
                + " deletecollection resource \"configmaps\" in API group \"\" in the namespace \"" + a + "\"");
        forbidden(Users.ALICE.request().get(configMaps(b)), "configmaps is forbidden: User \"alice\" cannot list"
                + " resource \"configmaps\" in API group \"\" in the namespace \"" + b + "\"");
        forbidden(Users.ALICE.request().get(configMaps(b) + "?watch=1"), "configmaps is forbidden: User \"alice\""
                + " cannot watch resource \"configmaps\" in API group \"\" in the namespace \"" + b + "\"");
        forbidden(Users.ALICE.request().get("/api/v1/configmaps"), "configmaps is forbidden: User \"alice\" cannot"
                + " list resource \"configmaps\" in API group \"\" at the cluster scope");
        forbidden(Users.ALICE.request().get("/api/v1/namespaces/" + a + "/secrets/none"), "secrets \"none\" is"
                + " forbidden: User \"alice\" cannot get resource \"secrets\" in API group \"\" in the namespace \""
                + a + "\"");
        forbidden(Users.ALICE.request().get("/api/v1/namespaces"), "namespaces is forbidden: User \"alice\" cannot"
                + " list resource \"namespaces\" in API group \"\" at the cluster scope");
        forbidden(Users.ALICE.request().get(roles(a)), "roles.rbac.authorization.k8s.io is forbidden: User"
                + " \"alice\" cannot list resource \"roles\" in API group \"rbac.authorization.k8s.io\" in the"
                + " namespace \"" + a + "\"");
    }

    @Test
    void bobWritesSecretsInNamespaceBThroughHisGroupButMayNotListThem() {
        String secrets = "/api/v1/namespaces/" + b + "/secrets";
        allowed(Users.BOB.request().body(secret("s")).post(secrets), 201);
        allowed(Users.BOB.request().get(secrets + "/s"), 200);
        allowed(Users.BOB.request().body(secret("s")).put(secrets + "/s"), 200);
        allowed(Users.BOB.request().contentType("application/merge-patch+json")
                .body("{\"metadata\":{\"labels\":{\"x\":\"y\"}}}").patch(secrets + "/s"), 200);
        allowed(Users.BOB.request().delete(secrets + "/s"), 200);
        allowed(Users.BOB.request().delete(secrets), 200);
        forbidden(Users.BOB.request().get(secrets), "secrets is forbidden: User \"bob\" cannot list resource"
                + " \"secrets\" in API group \"\" in the namespace \"" + b + "\"");
        forbidden(Users.BOB.request().get(secrets + "?watch=true"), "secrets is forbidden: User \"bob\" cannot"
                + " watch resource \"secrets\" in API group \"\" in the namespace \"" + b + "\"");
        forbidden(Users.BOB.request().body(secret("s")).post("/api/v1/namespaces/" + a + "/secrets"), "secrets is"
                + " forbidden: User \"bob\" cannot create resource \"secrets\" in API group \"\" in the namespace \""
                + a + "\"");
        forbidden(Users.BOB.request().get(configMaps(b) + "/other"), "configmaps \"other\" is forbidden: User"
                + " \"bob\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"" + b + "\"");
    }

    @Test
    void carolReadsNamespacesAndOneConfigMapByName() {
        allowed(Users.CAROL.request().get("/api/v1/namespaces"), 200);
        allowed(Users.CAROL.request().get("/api/v1/namespaces?watch=true&timeoutSeconds=1"), 200);
        allowed(Users.CAROL.request().get("/api/v1/namespaces/" + a), 200);
        allowed(Users.CAROL.request().get(configMaps(a) + "/shared"), 200);
        allowed(Users.CAROL.request().get(configMaps(b) + "/shared"), 200);
        forbidden(Users.CAROL.request().get(configMaps(a) + "/other"), "configmaps \"other\" is forbidden: User"
                + " \"carol\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"" + a + "\"");
        forbidden(Users.CAROL.request().get(configMaps(a)), "configmaps is forbidden: User \"carol\" cannot list"
                + " resource \"configmaps\" in API group \"\" in the namespace \"" + a + "\"");
        forbidden(Users.CAROL.request().body("{\"metadata\":{\"name\":\"carols\"}}").post("/api/v1/namespaces"),
                "namespaces is forbidden: User \"carol\" cannot create resource \"namespaces\" in API group \"\" at"
                        + " the cluster scope");
        forbidden(Users.CAROL.request().delete("/api/v1/namespaces/" + a), "namespaces \"" + a + "\" is"
                + " forbidden: User \"carol\" cannot delete resource \"namespaces\" in API group \"\" in the"
                + " namespace \"" + a + "\"");
    }

    @Test
    void aListLimitedToOneNameIsThatNameWhateverTheQuerySpells() {
        Response one = Users.CAROL.request().queryParam("fieldSelector", "metadata.name=shared").get(configMaps(a));
        allowed(one, 200);
        assertEquals(List.of("shared"), one.jsonPath().getList("items.metadata.name"));
        Response twice = Users.CAROL.request().queryParam("FieldSelector", "metadata.name=shared")
                .queryParam("fieldSelector", "metadata.name=shared").get(configMaps(a));
        assertEquals(400, twice.statusCode(), twice.asString());
        Response otherwise = Users.CAROL.request().queryParam("FieldSelector", "metadata.name=shared")
                .get(configMaps(a));
        assertEquals(400, otherwise.statusCode(), "read by one reader and not another: " + otherwise.asString());
    }

    @Test
    void aMemberOfSystemMastersMayDoEverything() {
        allowed(Users.ADMIN.request().get("/api/v1/configmaps"), 200);
        allowed(Users.ADMIN.request().get(roleBindings(a)), 200);
        allowed(Users.ADMIN.request().delete(configMaps(b) + "/other"), 200);
    }

    @Test
    void aBindingTakesEffectWhenItsCreateIsAnsweredAndEndsWhenItsDeleteIs() {
        forbidden(Users.CAROL.request().get(configMaps(b)), "configmaps is forbidden: User \"carol\" cannot list"
                + " resource \"configmaps\" in API group \"\" in the namespace \"" + b + "\"");
        Users.ADMIN.created(roleBindings(b), Rbac.roleBinding("carol-too", "Role", "cm-reader-b", "User:carol"));
        // bound to a role that does not exist yet: refused, and the 403 says why
        Response missing = Users.CAROL.request().get(configMaps(b));
        assertEquals(403, missing.statusCode(), missing.asString());
        assertEquals("configmaps is forbidden: User \"carol\" cannot list resource \"configmaps\" in API group \"\""
                + " in the namespace \"" + b + "\": RBAC: role.rbac.authorization.k8s.io \"cm-reader-b\" not found",
                missing.jsonPath().getString("message"));
        Users.ADMIN.created(roles(b), Rbac.role("cm-reader-b", Rbac.rule("", "configmaps", "list")));
        allowed(Users.CAROL.request().get(configMaps(b)), 200);
        allowed(Users.ADMIN.request().delete(roleBindings(b) + "/carol-too"), 200);
        forbidden(Users.CAROL.request().get(configMaps(b)), "configmaps is forbidden: User \"carol\" cannot list"
                + " resource \"configmaps\" in API group \"\" in the namespace \"" + b + "\"");
    }

    @Test
    void aWatchWhoseBindingIsRemovedEndsAndItsRewatchIsRefused() throws Exception {
        HttpRequest watch = HttpRequest.newBuilder(url.toURI().resolve(configMaps(a).substring(1)
                + "?watch=true&allowWatchBookmarks=true")).header("Authorization", "Bearer " + Users.ALICE.token())
                .build();
        HttpResponse<Stream<String>> stream = HTTP.send(watch, HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, stream.statusCode());
        Iterator<String> lines = stream.body().iterator();
        assertTrue(lines.next().contains("\"ADDED\""), "her first event: a configmap of the namespace");
        Users.ADMIN.created(configMaps(a), configMap("while-bound"));
        CompletableFuture<List<String>> rest = CompletableFuture.supplyAsync(() -> {
            List<String> seen = new ArrayList<>();
            lines.forEachRemaining(seen::add);
            return seen;
        });
        allowed(Users.ADMIN.request().delete(roleBindings(a) + "/alice-reads"), 200);
        // a bound on waiting for what must happen, not a pause: the stream ends within seconds of the removal
        List<String> after = rest.get(10, TimeUnit.SECONDS);
        assertTrue(after.stream().anyMatch(line -> line.contains("while-bound")), after.toString());
        forbidden(Users.ALICE.request().get(configMaps(a) + "?watch=true"), "configmaps is forbidden: User"
                + " \"alice\" cannot watch resource \"configmaps\" in API group \"\" in the namespace \"" + a + "\"");
        forbidden(Users.ALICE.request().get(configMaps(a)), "configmaps is forbidden: User \"alice\" cannot list"
                + " resource \"configmaps\" in API group \"\" in the namespace \"" + a + "\"");
    }

    @Test
    void aWatchThatStillHoldsAGrantGoesOnWhenAnotherBindingIsRemoved() throws Exception {
        HttpRequest watch = HttpRequest.newBuilder(url.toURI().resolve(configMaps(a).substring(1)
                + "?watch=true")).header("Authorization", "Bearer " + Users.ALICE.token()).build();
        HttpResponse<Stream<String>> stream = HTTP.send(watch, HttpResponse.BodyHandlers.ofLines());
        Iterator<String> lines = stream.body().iterator();
        lines.next();
        lines.next();
        allowed(Users.ADMIN.request().delete("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/carol-reads-"
                + RUNS.get()), 200);
        Users.ADMIN.created(configMaps(a), configMap("after-removal"));
        // the removal was applied before the create's answer; the watch got the event after it, so it was not ended
        String next = lines.next();
        assertTrue(next.contains("after-removal"), next);
        stream.body().close();
    }


    @Test
    void aPutThatWouldCreateALeaseNeedsTheRightToCreateItAsWell() {
        String leases = "/apis/coordination.k8s.io/v1/namespaces/" + a + "/leases";
        Users.ADMIN.created(roles(a), Rbac.role("lease-updater", Rbac.rule("coordination.k8s.io", "leases",
                "get,update")));
        Users.ADMIN.created(roleBindings(a), Rbac.roleBinding("alice-updates-leases", "Role", "lease-updater",
                "User:alice"));
        String lease = "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":"
                + "\"held\"},\"spec\":{\"holderIdentity\":\"alice\"}}";
        forbidden(Users.ALICE.request().body(lease).put(leases + "/held"), "leases.coordination.k8s.io \"held\" is"
                + " forbidden: User \"alice\" cannot create resource \"leases\" in API group \"coordination.k8s.io\""
                + " in the namespace \"" + a + "\"");
        Users.ALICE.request().get(leases + "/held").then().statusCode(404);

        // once it exists, her right to update it is enough
        Users.ADMIN.created(leases, lease.replace("alice", "admin"));
        String version = Users.ALICE.request().get(leases + "/held").then().statusCode(200).extract()
                .path("metadata.resourceVersion");
        allowed(Users.ALICE.request().body(lease.replace("\"held\"}", "\"held\",\"resourceVersion\":\""
                + version + "\"}")).put(leases + "/held"), 200);
    }

    @Test
    void anApplyThatWouldCreateNeedsTheRightToCreateAsWell() {
        Users.ADMIN.created(roles(a), Rbac.role("cm-patcher", Rbac.rule("", "configmaps", "get,patch")));
        Users.ADMIN.created(roleBindings(a), Rbac.roleBinding("alice-patches", "Role", "cm-patcher", "User:alice"));
        String applied = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"%s\"},"
                + "\"data\":{\"k\":\"v\"}}";
        forbidden(Users.ALICE.request().contentType("application/apply-patch+yaml")
                .body(applied.formatted("new").getBytes()).patch(configMaps(a) + "/new?fieldManager=alice"),
                "configmaps \"new\" is forbidden: User \"alice\" cannot create resource \"configmaps\" in API "
                        + "group \"\" in the namespace \"" + a + "\"");
        allowed(Users.ALICE.request().contentType("application/apply-patch+yaml")
                .body(applied.formatted("other").getBytes()).patch(configMaps(a) + "/other?fieldManager=alice"), 200);
    }

    private static void allowed(Response response, int code) {
        assertEquals(code, response.statusCode(), response.asString());
    }

    private static void forbidden(Response response, String message) {
        assertEquals(403, response.statusCode(), response.asString());
        assertEquals("Forbidden", response.jsonPath().getString("reason"));
        assertEquals(message, response.jsonPath().getString("message"));
    }

    private static String configMaps(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/configmaps";
    }

    private static String roles(String namespace) {
        return "/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/roles";
    }

    private static String roleBindings(String namespace) {
        return "/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/rolebindings";
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"}}";
    }

    private static String secret(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"data\":{\"k\":\"dg==\"}}";
    }
}
