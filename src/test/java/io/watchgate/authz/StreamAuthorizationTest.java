package io.watchgate.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.watchgate.watch.EventSourceReader;
import io.watchgate.watch.EventSourceReader.Sse;
import io.watchgate.watch.WatchConnection;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each watch of a stream is authorized as the single watch it stands for: one its user may not watch gets a 403
 * event of its own, worded as that watch's 403 would be, and the others go on; a stream of nothing the user may
 * watch is a plain 403. alice may watch configmaps in her namespace, and nothing else.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class StreamAuthorizationTest {

    private static final AtomicInteger RUNS = new AtomicInteger();

    private String ns;

    @BeforeEach
    void policy() {
        ns = "stream-authz-" + RUNS.incrementAndGet();
        Users.ADMIN.created("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + ns + "\"}}");
        Users.ADMIN.created("/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles",
                Rbac.role("cm-watcher", Rbac.rule("", "configmaps", "get,list,watch")));
        Users.ADMIN.created(bindings(), Rbac.roleBinding("alice-watches", "Role", "cm-watcher", "User:alice"));
    }

    @Test
    void aWatchItsUserMayNotWatchGetsItsOwn403AndTheOthersGoOn() {
        String maps = "/api/v1/namespaces/" + ns + "/configmaps";
        String secrets = "/api/v1/namespaces/" + ns + "/secrets";
        try (WatchConnection stream = open(Users.ALICE, maps, secrets)) {
            assertEquals(200, stream.status());
            EventSourceReader events = new EventSourceReader(stream);
            Sse refused = events.next();
            assertEquals("ERROR", refused.event());
            assertEquals(secrets, refused.json().path("watch").asText());
            assertEquals(403, refused.json().path("object").path("code").asInt());
            assertEquals("secrets is forbidden: User \"alice\" cannot watch resource \"secrets\" in API group \"\" in "
                    + "the namespace \"" + ns + "\"", refused.json().path("object").path("message").asText());

            Users.ADMIN.created(maps, "{\"metadata\":{\"name\":\"seen\"}}");
            Users.ADMIN.created(secrets, "{\"metadata\":{\"name\":\"unseen\"}}");
            Users.ADMIN.created(maps, "{\"metadata\":{\"name\":\"seen-too\"}}");
            assertEquals("seen", events.nextChange().json().path("object").path("metadata").path("name").asText());
            Sse next = events.nextChange();
            assertEquals(maps, next.json().path("watch").asText());
            assertEquals("seen-too", next.json().path("object").path("metadata").path("name").asText());
        }
    }

    @Test
    void aStreamOfNothingItsUserMayWatchIsA403() {
        Response response = Users.ALICE.request().accept("text/event-stream")
                .queryParam("watch", "/api/v1/namespaces/" + ns + "/secrets").get("/streams");
        assertEquals(403, response.statusCode(), response.asString());
        assertEquals("Forbidden", response.path("reason"));
        assertTrue(response.asString().contains("cannot watch resource \\\"secrets\\\""), response.asString());
        assertEquals(401, io.restassured.RestAssured.given()
                .queryParam("watch", "/api/v1/namespaces/" + ns + "/configmaps").get("/streams").statusCode());
    }

    @Test
    void aWatchWhoseBindingIsRemovedEndsWithA403AndTheStreamWithIt() {
        String maps = "/api/v1/namespaces/" + ns + "/configmaps";
        try (WatchConnection stream = open(Users.ALICE, maps)) {
            EventSourceReader events = new EventSourceReader(stream);
            Users.ADMIN.created(maps, "{\"metadata\":{\"name\":\"before\"}}");
            assertEquals("before", events.nextChange().json().path("object").path("metadata").path("name").asText());
            assertEquals(200, Users.ADMIN.request().delete(bindings() + "/alice-watches").statusCode());
            Sse ended = events.nextChange();
            assertEquals("ERROR", ended.event());
            assertEquals(maps, ended.json().path("watch").asText());
            assertEquals(403, ended.json().path("object").path("code").asInt());
            assertTrue(stream.endsWithin(Duration.ofSeconds(10)), "its only watch ended: so does the stream");
            assertFalse(ended.data().contains("\"name\":\"before\""));
        }
    }

    private String bindings() {
        return "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings";
    }

    private static WatchConnection open(Users user, String... urls) {
        StringBuilder path = new StringBuilder("/streams?");
        for (String url : urls) {
            path.append(path.length() > 9 ? "&" : "").append("watch=").append(encode(url));
        }
        return WatchConnection.open(path.toString(), "Authorization", "Bearer " + user.token(), "Accept",
                "text/event-stream");
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
