package io.watchgate.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.watchgate.authz.Users;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each user's share of the server: past it, that user's requests are 429 with Retry-After while other users go on,
 * and once the user is back within it (a watch closed, the write rate's window passed) its requests are served again.
 * Members of system:masters are exempt.
 */
@QuarkusTest
@TestProfile(FairnessOn.class)
class UserLimitsTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TestHTTPResource("/")
    URL base;

    @Inject
    MeterRegistry meters;

    private String namespace;

    @BeforeEach
    void grantEditInANamespaceOfItsOwn() {
        namespace = "fair-" + UUID.randomUUID().toString().substring(0, 8);
        Users.ADMIN.request().body("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + namespace
                + "\"}}").post("/api/v1/namespaces").then().statusCode(201);
        Users.ADMIN.request().body("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
                + "\"metadata\":{\"name\":\"editors\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                + "\"kind\":\"ClusterRole\",\"name\":\"edit\"},\"subjects\":["
                + "{\"kind\":\"User\",\"name\":\"alice\",\"apiGroup\":\"rbac.authorization.k8s.io\"},"
                + "{\"kind\":\"User\",\"name\":\"bob\",\"apiGroup\":\"rbac.authorization.k8s.io\"}]}")
                .post("/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace + "/rolebindings")
                .then().statusCode(201);
    }

    @Test
    void aUserPastItsWatchesIsRefusedOthersAreNotAndAClosedWatchGivesItsPlaceBack() throws Exception {
        List<HttpResponse<InputStream>> open = new ArrayList<>();
        try {
            open.add(watch(Users.ALICE));
            open.add(watch(Users.ALICE));
            open.forEach(w -> assertEquals(200, w.statusCode()));
            HttpResponse<InputStream> third = watch(Users.ALICE);
            assertEquals(429, third.statusCode());
            assertEquals("1", third.headers().firstValue("Retry-After").orElse(""));
            assertTrue(new String(third.body().readAllBytes()).contains("Too many requests, please try again later."));

            HttpResponse<InputStream> bobs = watch(Users.BOB);
            open.add(bobs);
            assertEquals(200, bobs.statusCode(), "another user's share is untouched");

            open.remove(0).body().close(); // the client goes away; the server notices the connection closed
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            HttpResponse<InputStream> again = watch(Users.ALICE);
            while (again.statusCode() == 429 && System.nanoTime() < deadline) {
                again.body().close();
                Thread.sleep(20); // polled until the deadline: the answer itself decides
                again = watch(Users.ALICE);
            }
            open.add(again);
            assertEquals(200, again.statusCode(), "the closed watch's place is alice's again");
        } finally {
            for (HttpResponse<InputStream> watch : open) {
                watch.body().close();
            }
        }
    }

    @Test
    void aStreamHoldsOneOfItsUsersPlacesForEachOfItsWatches() throws Exception {
        String maps = "/api/v1/namespaces/" + namespace + "/configmaps";
        String secrets = "/api/v1/namespaces/" + namespace + "/secrets";
        HttpResponse<InputStream> three = stream(Users.ALICE, maps, secrets, maps + "?labelSelector=a%3Db");
        String refusal = new String(three.body().readAllBytes()); // a refusal: the server ends it at once
        assertEquals(200, three.statusCode(), "an EventSource is told when to come back, not given a 429");
        assertTrue(refusal.contains("Too many requests") && refusal.contains("retry: 1000"), refusal);

        HttpResponse<InputStream> two = stream(Users.ALICE, maps, secrets);
        try {
            assertEquals(200, two.statusCode());
            HttpResponse<InputStream> more = watch(Users.ALICE);
            more.body().close();
            assertEquals(429, more.statusCode(), "two watches on one stream are alice's two places");
        } finally {
            two.body().close();
        }
    }

    @Test
    void watchesAddedToAWebSocketStreamTakeTheirUsersPlacesAndGiveThemBackWhenStopped() throws Exception {
        java.util.concurrent.BlockingQueue<String> messages = new java.util.concurrent.LinkedBlockingQueue<>();
        URI uri = URI.create(base.toString().replace("http:", "ws:") + "streams");
        // the stream holds one of alice's two places (one at least, as any long-running request), w1 the other
        WebSocket socket = CLIENT.newWebSocketBuilder().header("Authorization", "Bearer " + Users.ALICE.token())
                .buildAsync(uri, new io.watchgate.watch.TextMessages(messages)).get(10, TimeUnit.SECONDS);
        try {
            String maps = "/api/v1/namespaces/" + namespace + "/configmaps";
            for (String id : List.of("w1", "w2")) {
                socket.sendText("{\"op\":\"watch\",\"id\":\"" + id + "\",\"url\":\"" + maps + "\"}", true).join();
            }
            String refused = nextOf(messages, "\"watch\":\"w2\"");
            assertTrue(refused != null && refused.contains("\"watch\":\"w2\"") && refused.contains("\"code\":429"),
                    "her second watch is past her share: " + refused);
            socket.sendText("{\"op\":\"stop\",\"id\":\"w1\"}", true).join();
            String stopped = nextOf(messages, "\"STOPPED\"");
            assertTrue(stopped != null && stopped.contains("\"watch\":\"w1\""), "w1 has stopped: " + stopped);
            socket.sendText("{\"op\":\"watch\",\"id\":\"w3\",\"url\":\"" + maps + "\"}", true).join();
            Users.ALICE.request().body("{\"metadata\":{\"name\":\"seen\"}}")
                    .post("/api/v1/namespaces/" + namespace + "/configmaps").then().statusCode(201);
            String added = nextOf(messages, "\"ADDED\"");
            assertTrue(added != null && added.contains("\"watch\":\"w3\"") && added.contains("\"ADDED\""),
                    "w1's place went to w3: " + added);
        } finally {
            socket.abort();
        }
    }

    /** The next message that contains {@code text} (others, such as bookmarks, skipped), or null within 10 s. */
    private static String nextOf(java.util.concurrent.BlockingQueue<String> messages, String text)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            String message = messages.poll(100, TimeUnit.MILLISECONDS);
            if (message != null && message.contains(text)) {
                return message;
            }
        }
        return null;
    }

    private HttpResponse<InputStream> stream(Users user, String... urls) throws Exception {
        StringBuilder query = new StringBuilder();
        for (String url : urls) {
            query.append(query.length() == 0 ? "?" : "&").append("watch=")
                    .append(java.net.URLEncoder.encode(url, java.nio.charset.StandardCharsets.UTF_8));
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(base.toString() + "streams" + query))
                .header("Authorization", "Bearer " + user.token()).header("Accept", "text/event-stream").build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
    }

    @Test
    void aClosedWebSocketWatchGivesItsPlaceBackToo() throws Exception {
        // twice the share, one after the other: each closed watch must have given its place back
        for (int i = 0; i < 4; i++) {
            WebSocket socket = awaitWebSocket(Users.ALICE);
            socket.abort(); // the client goes away without a close frame
        }
    }

    @Test
    void anEventSourcePastItsShareIsToldWhenToComeBackNotGivenAnErrorAndOthersGetThe429() throws Exception {
        List<HttpResponse<InputStream>> open = new ArrayList<>();
        try {
            open.add(watch(Users.BOB));
            open.add(watch(Users.BOB));
            HttpResponse<String> refused = CLIENT.send(HttpRequest.newBuilder(URI.create(base.toString()
                    + "api/v1/namespaces/" + namespace + "/configmaps?watch=true"))
                    .header("Authorization", "Bearer " + Users.BOB.token()).header("Accept", "text/event-stream")
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, refused.statusCode(), "an EventSource never retries after an error status");
            assertTrue(refused.body().contains("retry: 1000"), refused.body());
            HttpResponse<String> protobufOnly = CLIENT.send(HttpRequest.newBuilder(URI.create(base.toString()
                    + "api/v1/namespaces/" + namespace + "/configmaps?watch=true"))
                    .header("Authorization", "Bearer " + Users.BOB.token())
                    .header("Accept", "application/vnd.kubernetes.protobuf").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(429, protobufOnly.statusCode(), "a watch form the refusal cannot take gets it as JSON: "
                    + protobufOnly.body());
            assertTrue(protobufOnly.body().contains("\"reason\":\"TooManyRequests\""), protobufOnly.body());
        } finally {
            for (HttpResponse<InputStream> watch : open) {
                watch.body().close();
            }
        }
    }

    /** A WebSocket watch as soon as the user has a place for one again (within 10 s). */
    private WebSocket awaitWebSocket(Users user) throws Exception {
        URI uri = URI.create(base.toString().replace("http:", "ws:") + "api/v1/namespaces/" + namespace
                + "/configmaps?watch=true");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                return CLIENT.newWebSocketBuilder().header("Authorization", "Bearer " + user.token())
                        .buildAsync(uri, new WebSocket.Listener() {
                        }).get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no WebSocket watch for " + user.userName() + " within 10 s", e);
                }
                Thread.sleep(20); // polled until the deadline: the server's answer decides
            }
        }
    }

    @Test
    void writesPastTheRateAreRefusedUntilTheWindowThenServedAndAdminsAreExempt() throws Exception {
        assertEquals(201, create(Users.BOB, "b1").statusCode());
        assertEquals(201, create(Users.BOB, "b2").statusCode(), "a burst of 2");
        Response refused = create(Users.BOB, "b3");
        assertEquals(429, refused.statusCode(), refused.asString());
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 5, "one write per 5 s: " + retryAfter);
        assertEquals("TooManyRequests", refused.jsonPath().getString("reason"));
        assertEquals(404, Users.ADMIN.request().get("/api/v1/namespaces/" + namespace + "/configmaps/b3")
                .statusCode(), "the refused write left the store untouched");

        for (int i = 0; i < 5; i++) {
            assertEquals(201, create(Users.ADMIN, "admin-" + i).statusCode(), "system:masters is exempt");
        }
        Thread.sleep(Duration.ofSeconds(retryAfter).toMillis()); // the window the server named, not a guess
        assertEquals(201, create(Users.BOB, "b3").statusCode(), "served again once the window passed");
    }

    @Test
    void refusalsAreCountedByABoundedSetOfUserLabels() throws Exception {
        // labelled-users is 1: the first user refused keeps its name, any other is "other"
        for (Users user : List.of(Users.ALICE, Users.CAROL)) {
            for (int i = 0; i < 3; i++) {
                create(user, user.userName() + "-label-" + i);
            }
        }
        long named = meters.find("watchgate.user.refusals").counters().stream().map(c -> c.getId().getTag("user"))
                .filter(user -> !user.equals("other")).distinct().count();
        assertEquals(1, named, "one user named, whichever was refused first");
        assertTrue(meters.find("watchgate.user.refusals").tag("user", "other").counters().stream()
                .mapToDouble(c -> c.count()).sum() >= 1, "the others share one label");
    }

    private Response create(Users user, String name) {
        return user.request().body("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\"}}").post("/api/v1/namespaces/" + namespace + "/configmaps");
    }

    /** A watch held open until its body is closed. */
    private HttpResponse<InputStream> watch(Users user) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base.toString() + "api/v1/namespaces/" + namespace
                + "/configmaps?watch=true")).header("Authorization", "Bearer " + user.token()).build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
    }
}
