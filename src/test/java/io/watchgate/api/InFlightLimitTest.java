package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.currentRevision;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.watchgate.metrics.Samples;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * At most two reads and one write in flight (a tiny profile): one more is 429 with {@code Retry-After: 1}, watches take
 * no place, and a place comes back when its response ends or its client resets the connection.
 */
@QuarkusTest
@TestProfile(InFlightLimitTest.TinyLimits.class)
class InFlightLimitTest {

    public static class TinyLimits implements QuarkusTestProfile {
        @Override
        public java.util.Map<String, String> getConfigOverrides() {
            // a read for a future resourceVersion is held until it comes, for longer than any of these tests waits
            return java.util.Map.of("watchgate.api.max-requests-inflight", "2",
                    "watchgate.api.max-mutating-requests-inflight", "1",
                    "watchgate.reads.resource-version-wait", "30s");
        }
    }

    private static final long WAIT_MILLIS = 10_000;
    private static final String REFUSED_READS = "watchgate_refusals_total{reason=\"requests-inflight\"}";

    @TestHTTPResource(value = "/", management = true)
    URI management;

    private final List<Socket> held = new ArrayList<>();

    /**
     * Resets what a test held, then writes once: a reset read's place comes back at once, but its worker thread waits
     * on for its resourceVersion, and a write that reaches that revision lets it go before the application stops
     * (which would otherwise wait for it).
     */
    @AfterEach
    void releaseHeld() throws IOException {
        for (Socket socket : held) {
            reset(socket);
        }
        if (!held.isEmpty()) {
            eventually(() -> given().contentType(ContentType.JSON).body("{\"metadata\":{\"name\":\"release-"
                    + System.nanoTime() + "\"}}").post("/api/v1/namespaces"), 201);
        }
    }

    @Test
    void aReadPastTheLimitIsTooManyRequestsUntilOneEnds() throws Exception {
        String ns = newNamespace("inflight-reads");
        double refusedBefore = Samples.value(Samples.scrape(management), REFUSED_READS);
        long next = currentRevision() + 1;
        holdRead(configMaps(ns) + "?resourceVersion=" + next + "&resourceVersionMatch=NotOlderThan");
        holdRead(configMaps(ns) + "?resourceVersion=" + next + "&resourceVersionMatch=NotOlderThan");
        Response refused = eventually(() -> given().get("/api/v1/namespaces/" + ns), 429);
        assertEquals("1", refused.header("Retry-After"));
        refused.then().body("kind", org.hamcrest.Matchers.equalTo("Status"))
                .body("reason", org.hamcrest.Matchers.equalTo("TooManyRequests"))
                .body("details.retryAfterSeconds", org.hamcrest.Matchers.equalTo(1));
        assertTrue(Samples.value(Samples.scrape(management), REFUSED_READS) > refusedBefore, "the refusal was not counted");
        // writes have places of their own; the write answers the held reads, whose places come back
        createOk(configMaps(ns), configMap("next", ""));
        eventually(() -> given().get("/api/v1/namespaces/" + ns), 200);
    }

    @Test
    void watchesTakeNoPlace() throws Exception {
        String ns = newNamespace("inflight-watch");
        long next = currentRevision() + 1;
        holdRead(configMaps(ns) + "?resourceVersion=" + next + "&resourceVersionMatch=NotOlderThan");
        holdRead(configMaps(ns) + "?resourceVersion=" + next + "&resourceVersionMatch=NotOlderThan");
        eventually(() -> given().get("/api/v1/namespaces/" + ns), 429);
        given().get(configMaps(ns) + "?watch=true&timeoutSeconds=1").then().statusCode(200);
    }

    @Test
    void aWritePastTheLimitIsTooManyRequestsAndAResetGivesItsPlaceBack() throws Exception {
        String ns = newNamespace("inflight-writes");
        // a write whose body never comes holds its place
        Socket slow = hold("POST " + configMaps(ns) + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
        int[] tried = {0};
        Response refused = eventually(() -> given().contentType(ContentType.JSON)
                .body(configMap("w" + tried[0]++, "")).post(configMaps(ns)), 429);
        assertEquals("1", refused.header("Retry-After"));
        given().get("/api/v1/namespaces/" + ns).then().statusCode(200); // reads have places of their own
        reset(slow);
        eventually(() -> given().contentType(ContentType.JSON).body(configMap("after-reset", "")).post(configMaps(ns)),
                201);
    }

    @Test
    void aResetReadGivesItsPlaceBackBeforeItsWaitEnds() throws Exception {
        String ns = newNamespace("inflight-reset");
        long next = currentRevision() + 1;
        Socket first = holdRead(configMaps(ns) + "?resourceVersion=" + next + "&resourceVersionMatch=NotOlderThan");
        Socket second = holdRead(configMaps(ns) + "?resourceVersion=" + next + "&resourceVersionMatch=NotOlderThan");
        eventually(() -> given().get("/api/v1/namespaces/" + ns), 429);
        reset(first);
        reset(second);
        // the held reads would wait 30 s for their resourceVersion: served sooner means the resets freed them
        eventually(() -> given().get("/api/v1/namespaces/" + ns), 200);
    }

    private Socket holdRead(String pathAndQuery) throws IOException {
        return hold("GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    }

    private Socket hold(String request) throws IOException {
        Socket socket = new Socket("localhost", RestAssured.port);
        held.add(socket);
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return socket;
    }

    /** Closes with a TCP reset (linger 0), as a client that gives up abruptly does. */
    private static void reset(Socket socket) throws IOException {
        if (!socket.isClosed()) {
            socket.setSoLinger(true, 0);
            socket.close();
        }
    }

    /**
     * The first answer with {@code code} to {@code request}, asked again while it answers otherwise (the held requests
     * reach the server, or leave it, a moment after the client sent them), failing after {@link #WAIT_MILLIS}.
     */
    private Response eventually(Supplier<Response> request, int code) {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        List<Integer> seen = new ArrayList<>();
        while (System.currentTimeMillis() < deadline) {
            Response response = request.get();
            if (response.statusCode() == code) {
                return response;
            }
            seen.add(response.statusCode());
        }
        return fail("no " + code + " within " + WAIT_MILLIS + " ms; answers: "
                + seen.subList(0, Math.min(20, seen.size())) + "; the held requests were answered: " + heldAnswers());
    }

    /** The first line each held request was answered with, if any: why it no longer held its place. */
    private List<String> heldAnswers() {
        List<String> answers = new ArrayList<>();
        for (Socket socket : held) {
            try {
                socket.setSoTimeout(100);
                byte[] head = new byte[200];
                int read = socket.getInputStream().read(head);
                answers.add(read <= 0 ? "(nothing)" : new String(head, 0, read, StandardCharsets.ISO_8859_1)
                        .split("\r\n")[0]);
            } catch (IOException e) {
                answers.add("(" + e.getMessage() + ")");
            }
        }
        return answers;
    }
}
