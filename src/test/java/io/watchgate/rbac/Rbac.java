package io.watchgate.rbac;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Paths and bodies for the RBAC tests, so that each reads as the objects it writes. */
final class Rbac {

    static final String API = "/apis/rbac.authorization.k8s.io/v1";
    static final String CLUSTER_ROLES = API + "/clusterroles";
    static final String CLUSTER_ROLE_BINDINGS = API + "/clusterrolebindings";

    private Rbac() {
    }

    static String roles(String namespace) {
        return API + "/namespaces/" + namespace + "/roles";
    }

    static String roleBindings(String namespace) {
        return API + "/namespaces/" + namespace + "/rolebindings";
    }

    /** A body of {@code kind} named {@code name}; {@code fields} is spliced in after metadata. */
    static String object(String kind, String name, String fields) {
        return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\""
                + name + "\"}" + (fields.isEmpty() ? "" : "," + fields) + "}";
    }

    static Response post(String collection, String body) {
        return given().contentType(ContentType.JSON).body(body).post(collection);
    }

    static Response put(String path, String body) {
        return given().contentType(ContentType.JSON).body(body).put(path);
    }

    /** Waits for what the aggregation controller does after a commit, on its own thread. */
    static void eventually(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }
}
