package io.watchgate.audit;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The audit log: one kube audit event per request at level Metadata, for what was allowed, refused and not
 * authenticated alike, naming the user, the object and the code, and never a body.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class AuditLogTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URL base;

    @Test
    void eachRequestIsOneLineWithWhoWhatAndTheAnswer() throws Exception {
        String agent = "audit-test/" + UUID.randomUUID();
        String secretValue = "s3cr3t-" + UUID.randomUUID();
        Users.ADMIN.request().header("User-Agent", agent)
                .body("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"audited\"},"
                        + "\"stringData\":{\"password\":\"" + secretValue + "\"}}")
                .post("/api/v1/namespaces/default/secrets").then().statusCode(201);
        Users.ALICE.request().header("User-Agent", agent).get("/api/v1/namespaces/default/secrets/audited")
                .then().statusCode(403);
        given().header("User-Agent", agent).get("/api/v1/namespaces/default/configmaps?resourceVersion=0")
                .then().statusCode(401);
        Users.ADMIN.request().header("User-Agent", agent).header("Impersonate-User", "bob")
                .get("/api/v1/namespaces/default/configmaps?resourceVersion=0").then().statusCode(403);

        List<JsonNode> events = eventsOf(agent, 4);
        JsonNode create = events.get(0);
        assertEquals("Event", create.path("kind").asText());
        assertEquals("audit.k8s.io/v1", create.path("apiVersion").asText());
        assertEquals("Metadata", create.path("level").asText());
        assertEquals("ResponseComplete", create.path("stage").asText());
        assertEquals("create", create.path("verb").asText());
        assertEquals("admin", create.at("/user/username").asText());
        assertEquals("system:masters", create.at("/user/groups/0").asText());
        assertEquals("secrets", create.at("/objectRef/resource").asText());
        assertEquals("default", create.at("/objectRef/namespace").asText());
        assertEquals("v1", create.at("/objectRef/apiVersion").asText());
        assertEquals(201, create.at("/responseStatus/code").asInt());
        assertTrue(create.at("/annotations/watchgate.io~1latency").asText().matches("\\d+us"), create.toString());
        assertFalse(create.path("sourceIPs").isEmpty());

        JsonNode denied = events.get(1);
        assertEquals("get", denied.path("verb").asText());
        assertEquals("alice", denied.at("/user/username").asText());
        assertEquals("audited", denied.at("/objectRef/name").asText());
        assertEquals(403, denied.at("/responseStatus/code").asInt());

        JsonNode anonymous = events.get(2);
        assertEquals(401, anonymous.at("/responseStatus/code").asInt());
        assertTrue(anonymous.path("user").isMissingNode(), "nobody was authenticated: " + anonymous);
        assertEquals("list", anonymous.path("verb").asText());
        assertEquals("0", anonymous.at("/annotations/watchgate.io~1request-resource-version").asText());

        JsonNode impersonating = events.get(3);
        assertEquals("admin", impersonating.at("/user/username").asText());
        assertEquals("bob", impersonating.at("/impersonatedUser/username").asText());
        assertEquals(403, impersonating.at("/responseStatus/code").asInt());

        assertEquals(4, new HashSet<>(events.stream().map(e -> e.path("auditID").asText()).toList()).size());
        assertFalse(Files.readString(RbacOn.AUDIT_LOG).contains(secretValue), "no body reaches the log");
    }

    @Test
    void aWebSocketWatchIsWrittenWhenItsSocketCloses() throws Exception {
        String agent = "audit-test-ws/" + UUID.randomUUID();
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .header("Authorization", "Bearer " + Users.ADMIN.token()).header("User-Agent", agent)
                .buildAsync(URI.create(base.toString().replace("http:", "ws:")
                        + "api/v1/namespaces/default/configmaps?watch=true"), new WebSocket.Listener() {
                        }).get(10, TimeUnit.SECONDS);
        socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
        JsonNode watch = eventsOf(agent, 1).get(0);
        assertEquals("watch", watch.path("verb").asText());
        assertEquals(101, watch.at("/responseStatus/code").asInt(), "Switching Protocols");
        assertEquals("admin", watch.at("/user/username").asText());
    }

    /** The events of requests with this user agent, waiting (up to 10 s) for the writer's thread to write them. */
    private static List<JsonNode> eventsOf(String agent, int expected) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            List<JsonNode> events = new ArrayList<>();
            String log = new String(Files.readAllBytes(RbacOn.AUDIT_LOG), StandardCharsets.UTF_8);
            for (String line : log.substring(0, log.lastIndexOf('\n') + 1).split("\n")) {
                if (line.contains(agent)) {
                    events.add(JSON.readTree(line));
                }
            }
            if (events.size() >= expected || System.nanoTime() > deadline) {
                assertEquals(expected, events.size(), events.toString());
                return events;
            }
            Thread.sleep(20); // polled until the deadline: the count itself decides
        }
    }
}
