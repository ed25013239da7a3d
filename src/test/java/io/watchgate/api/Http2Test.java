package io.watchgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Clients speaking HTTP/2 (cleartext, prior knowledge) get the same Status answers as HTTP/1.1 ones. */
@QuarkusTest
class Http2Test {

    @Inject
    Vertx vertx;

    private HttpClient client;

    @BeforeEach
    void connect() {
        client = vertx.createHttpClient(new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false)
                // room on the connection for what watches that stopped reading hold (each stream's own window
                // stays 64 KiB): with HTTP/2's default, they would hold the whole connection's window
                .setHttp2ConnectionWindowSize(16 * 1024 * 1024));
    }

    @AfterEach
    void close() throws Exception {
        client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /**
     * Posts {@code body} and returns the answer's status code and body. The answer is asked for before the body is
     * sent: the server may answer (a 413) while the client is still sending, and Vert.x 4's {@code send(body)} asks
     * for the response only once it has ended the request; an answer that had come and ended in between had its
     * body dropped, with no handler to take it (10 of 400 tries).
     */
    private String post(String contentType, Buffer body) throws Exception {
        return client.request(HttpMethod.POST, RestAssured.port, "localhost", "/api/v1/namespaces/default/configmaps")
                .compose(request -> {
                    Future<String> answer = request.response().compose(response -> {
                        assertEquals(HttpVersion.HTTP_2, response.version());
                        return response.body().map(b -> response.statusCode() + " " + b);
                    });
                    request.putHeader("Content-Type", contentType).end(body);
                    return answer;
                })
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void anUnsupportedMediaTypeIsAStatus() throws Exception {
        String answer = post("text/plain", Buffer.buffer("x"));
        assertTrue(answer.startsWith("415 "), answer);
        assertTrue(answer.contains("\"reason\":\"UnsupportedMediaType\""), answer);
    }

    @Test
    void aBodyOverTheLimitIsAStatus() throws Exception {
        String answer = post("application/json", Buffer.buffer(new byte[4 * 1024 * 1024]));
        assertTrue(answer.startsWith("413 "), answer);
        assertTrue(answer.contains("\"reason\":\"RequestEntityTooLarge\""), answer);
    }

    @Test
    void aCreateWorks() throws Exception {
        String answer = post("application/json", Buffer.buffer("{\"metadata\":{\"generateName\":\"h2-\"}}"));
        assertTrue(answer.startsWith("201 "), answer);
    }

    @Test
    void aWatchStreamsOverAnHttp2Stream() throws Exception {
        long from = Api.currentRevision();
        java.util.concurrent.CompletableFuture<String> firstEvent = new java.util.concurrent.CompletableFuture<>();
        client.request(HttpMethod.GET, RestAssured.port, "localhost",
                        "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + from)
                .compose(request -> request.send())
                .onSuccess(response -> {
                    StringBuilder received = new StringBuilder();
                    response.handler(chunk -> {
                        received.append(chunk.toString());
                        int newline = received.indexOf("\n");
                        if (newline >= 0) {
                            firstEvent.complete(response.version() + " " + response.getHeader("content-type") + " "
                                    + received.substring(0, newline));
                            response.request().reset();
                        }
                    });
                })
                .onFailure(firstEvent::completeExceptionally);
        String created = post("application/json", Buffer.buffer("{\"metadata\":{\"name\":\"h2-watched-"
                + System.nanoTime() + "\"}}"));
        assertTrue(created.startsWith("201 "), created);
        String event = firstEvent.get(10, TimeUnit.SECONDS);
        assertTrue(event.startsWith("HTTP_2 application/json {\"type\":\"ADDED\""), event);
    }

    /**
     * Twenty watches share one HTTP/2 connection, as client-go's and a browser's do, and every event goes to each in
     * order (written in one socket write per connection and event, which this cannot see, rather than one per watch).
     * Half the watches stop reading while the writes go on: the 120 KiB of events for each is more than its stream's
     * 64 KiB window, so the server's writes to it must wait on the client, and the watch catch up once read again
     * (that the server did wait is not observed here: what is checked is that nothing is lost or reordered).
     */
    @Test
    void watchesSharingAConnectionEachGetEveryEventInOrderThoughSomeStopReadingForAWhile() throws Exception {
        long from = Api.currentRevision();
        String prefix = "h2-shared-" + System.nanoTime() + "-";
        int watches = 20;
        int writes = 30;
        String data = "x".repeat(4096); // 30 events of 4 KiB: past a stream's 64 KiB window
        Set<HttpConnection> connections = ConcurrentHashMap.newKeySet();
        List<List<Long>> seen = new ArrayList<>();
        List<CompletableFuture<Void>> allSeen = new ArrayList<>();
        List<HttpClientResponse> paused = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> open = new ArrayList<>();
        for (int i = 0; i < watches; i++) {
            List<Long> versions = Collections.synchronizedList(new ArrayList<>());
            CompletableFuture<Void> complete = new CompletableFuture<>();
            CompletableFuture<Void> opened = new CompletableFuture<>();
            seen.add(versions);
            allSeen.add(complete);
            open.add(opened);
            boolean pause = i % 2 == 0;
            client.request(HttpMethod.GET, RestAssured.port, "localhost",
                            "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + from)
                    .compose(request -> request.send())
                    .onSuccess(response -> {
                        connections.add(response.request().connection());
                        StringBuilder pending = new StringBuilder();
                        response.handler(chunk -> {
                            pending.append(chunk.toString());
                            for (int newline; (newline = pending.indexOf("\n")) >= 0; pending.delete(0, newline + 1)) {
                                String line = pending.substring(0, newline);
                                Matcher version = RESOURCE_VERSION.matcher(line);
                                if (line.contains(prefix) && version.find()) {
                                    versions.add(Long.parseLong(version.group(1)));
                                }
                            }
                            if (versions.size() >= writes) {
                                complete.complete(null);
                            }
                        });
                        if (pause) {
                            response.pause();
                            paused.add(response);
                        }
                        opened.complete(null);
                    })
                    .onFailure(opened::completeExceptionally);
        }
        CompletableFuture.allOf(open.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        for (int k = 0; k < writes; k++) {
            String created = post("application/json", Buffer.buffer("{\"metadata\":{\"name\":\"" + prefix + k
                    + "\"},\"data\":{\"d\":\"" + data + "\"}}"));
            assertTrue(created.startsWith("201 "), created);
        }
        paused.forEach(HttpClientResponse::resume);
        for (int i = 0; i < watches; i++) {
            allSeen.get(i).get(30, TimeUnit.SECONDS);
            List<Long> versions = List.copyOf(seen.get(i));
            assertEquals(writes, versions.size(), "watch " + i + ": " + versions);
            for (int k = 1; k < versions.size(); k++) {
                assertTrue(versions.get(k) > versions.get(k - 1), "watch " + i + " in order: " + versions);
            }
        }
        assertEquals(1, connections.size(), "the watches shared one connection");
    }

    @Test
    void aWatchItsClientResetsWithFramesWaitingForItsWindowLeavesTheConnectionsOtherWatchesAlone() throws Exception {
        long from = Api.currentRevision();
        String prefix = "h2-reset-" + System.nanoTime() + "-";
        String data = "x".repeat(4096);
        String path = "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + from;
        HttpClientResponse stopped = client.request(HttpMethod.GET, RestAssured.port, "localhost", path)
                .compose(request -> request.send()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        stopped.pause();
        List<Long> versions = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> allSeen = new CompletableFuture<>();
        int writes = 40;
        HttpClientResponse reading = client.request(HttpMethod.GET, RestAssured.port, "localhost", path)
                .compose(request -> request.send()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        StringBuilder pending = new StringBuilder();
        reading.handler(chunk -> {
            pending.append(chunk.toString());
            for (int newline; (newline = pending.indexOf("\n")) >= 0; pending.delete(0, newline + 1)) {
                Matcher version = RESOURCE_VERSION.matcher(pending.substring(0, newline));
                if (pending.substring(0, newline).contains(prefix) && version.find()) {
                    versions.add(Long.parseLong(version.group(1)));
                }
            }
            if (versions.size() >= writes) {
                allSeen.complete(null);
            }
        });
        assertEquals(stopped.request().connection(), reading.request().connection(), "one connection");
        // 30 events of 4 KiB: past the stopped stream's 64 KiB window, so the server holds frames for it
        for (int k = 0; k < 30; k++) {
            assertTrue(post("application/json", Buffer.buffer("{\"metadata\":{\"name\":\"" + prefix + k
                    + "\"},\"data\":{\"d\":\"" + data + "\"}}")).startsWith("201 "));
        }
        stopped.request().reset(); // the server's held frames for it fail as its stream closes
        for (int k = 30; k < writes; k++) {
            assertTrue(post("application/json", Buffer.buffer("{\"metadata\":{\"name\":\"" + prefix + k
                    + "\"},\"data\":{\"d\":\"" + data + "\"}}")).startsWith("201 "));
        }
        allSeen.get(30, TimeUnit.SECONDS);
        assertEquals(writes, versions.size(), "every event, none missed or repeated: " + versions);
    }

    private static final Pattern RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"(\\d+)\"");
}
