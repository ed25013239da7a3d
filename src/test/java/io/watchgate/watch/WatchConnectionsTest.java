package io.watchgate.watch;

import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A watch over HTTP/1.1 has its connection to itself: its answer, events or a refusal, says {@code Connection:
 * close}, so a client's pool never gives that connection to another request. Clients rely on it without knowing:
 * Vert.x 4's HTTP/1.1 client (fabric8's default) closes a pooled connection when a request it had completed is reset
 * later, and fabric8 resets its previous watch request as it watches again; the request that had been given the
 * ended watch's connection would fail with "Connection was closed".
 */
@QuarkusTest
class WatchConnectionsTest {

    @Inject
    Vertx vertx;

    /** One connection at most, kept alive: a pool gives its idle connection to the next request. */
    private HttpClient client;

    @BeforeEach
    void connect() {
        client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions()
                .setHttp1MaxSize(1));
    }

    @AfterEach
    void close() throws Exception {
        await(client.close());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fieldSelector=spec.nodeName", "timeoutSeconds=1"}) // refused (400); ended by its timeout
    void aWatchThatEndedAndIsResetLaterLeavesTheClientsNextRequestAlone(String ending) throws Exception {
        String ns = newNamespace("watch-connection");
        HttpClientRequest ended = await(client.request(HttpMethod.GET, RestAssured.port, "localhost",
                configMaps(ns) + "?watch=true&" + ending));
        HttpClientResponse endedResponse = await(ended.send());
        await(endedResponse.body());
        assertEquals("close", endedResponse.getHeader("Connection"), "status " + endedResponse.statusCode());

        // the client's next request: a watch, which stays open until the client ends it
        HttpClientRequest next = await(client.request(HttpMethod.GET, RestAssured.port, "localhost",
                configMaps(ns) + "?watch=true"));
        Buffer events = Buffer.buffer();
        CompletableFuture<String> added = new CompletableFuture<>();
        CompletableFuture<Throwable> failed = new CompletableFuture<>();
        HttpClientResponse nextResponse = await(next.send());
        assertEquals(200, nextResponse.statusCode());
        nextResponse.exceptionHandler(failed::complete);
        nextResponse.handler(chunk -> {
            events.appendBuffer(chunk);
            if (events.toString().contains("\"ADDED\"")) {
                added.complete(events.toString());
            }
        });
        HttpConnection nextConnection = next.connection();
        assertNotSame(ended.connection(), nextConnection, "the ended watch's connection was not given to it");

        assertTrue(ended.reset(), "the ended watch reset, as fabric8 does when it watches again");
        createOk(configMaps(ns), configMap("after-the-reset", ""));
        Object first = CompletableFuture.anyOf(added, failed).get(20, TimeUnit.SECONDS);
        assertTrue(first instanceof String received && received.contains("after-the-reset"),
                "the open watch delivers the change, it did not fail: " + first);
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
}
