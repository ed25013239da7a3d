package io.watchgate.api;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.concurrent.atomic.AtomicInteger;

/** Small helpers that keep the HTTP tests reading like kubectl sessions. */
public final class Api {

    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    private Api() {
    }

    /** Creates a fresh namespace so each test has a collection of its own. */
    public static String newNamespace(String prefix) {
        return newNamespace(given(), prefix);
    }

    /** As {@link #newNamespace(String)}, created with {@code as} (a user's request, on a server that asks who). */
    public static String newNamespace(RequestSpecification as, String prefix) {
        String name = prefix + "-" + NAMESPACES.incrementAndGet() + "-" + System.nanoTime() % 100000;
        as.contentType(ContentType.JSON)
                .body("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}")
                .post("/api/v1/namespaces")
                .then().statusCode(201);
        return name;
    }

    public static String configMaps(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/configmaps";
    }

    /** A ConfigMap body; {@code extra} is spliced in verbatim (e.g. a labels or data member). */
    public static String configMap(String name, String extra) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"}"
                + (extra.isEmpty() ? "" : "," + extra) + "}";
    }

    public static String labelled(String name, String labels) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":"
                + labels + "},\"data\":{\"k\":\"v\"}}";
    }

    public static Response create(String collection, String body) {
        return given().contentType(ContentType.JSON).body(body).post(collection);
    }

    public static Response createOk(String collection, String body) {
        Response response = create(collection, body);
        response.then().statusCode(201);
        return response;
    }

    /** The store's newest revision, read as the resourceVersion of a list. */
    public static long currentRevision() {
        return Long.parseLong(given().get("/api/v1/namespaces").then().statusCode(200)
                .extract().path("metadata.resourceVersion"));
    }
}
