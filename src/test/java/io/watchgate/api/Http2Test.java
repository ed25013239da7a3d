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
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
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
                .setHttp2ClearTextUpgrade(false));
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
}
