package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.StreamResetException;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A client that asks for a large list and stops reading does not keep the thread writing it: the response is cut
 * off at the send deadline, and the server goes on serving.
 */
@QuarkusTest
@TestProfile(SendDeadlineTest.ShortDeadline.class)
class SendDeadlineTest {

    public static class ShortDeadline implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("watchgate.api.send-timeout", "1s");
        }
    }

    @TestHTTPResource("/")
    URI api;

    @Inject
    Vertx vertx;

    @TestHTTPResource(value = "/", management = true)
    URI management;

    private static final String VALUE = "x".repeat(64 * 1024);
    private static final int COUNT = 200; // 13 MB: more than the socket buffers between server and client hold

    private static String largeList(String prefix) {
        String ns = newNamespace(prefix);
        for (int i = 0; i < COUNT; i++) {
            createOk(configMaps(ns), configMap(String.format("cm-%03d", i), "\"data\":{\"v\":\"" + VALUE + "\"}"));
        }
        return ns;
    }

    private void awaitCutOffAfter(long before) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (cutOff() == before) {
            assertTrue(System.nanoTime() < deadline, "the unread list was never cut off");
            Thread.sleep(50);
        }
    }

    @Test
    void aLargeListItsClientStoppedReadingIsCutOffAtTheDeadline() throws Exception {
        String ns = largeList("unread");
        int count = COUNT;
        long cutBefore = cutOff();
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(4096);
            client.connect(new InetSocketAddress(api.getHost(), api.getPort()));
            client.getOutputStream().write(("GET " + configMaps(ns) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            client.getOutputStream().flush();
            // the client reads nothing until the server has given up on it
            awaitCutOffAfter(cutBefore);
            byte[] received = readUntilClosed(client.getInputStream());
            assertTrue(received.length < count * VALUE.length(), "only part of the list arrived: " + received.length);
            String tail = new String(received, Math.max(0, received.length - 16), Math.min(16, received.length),
                    StandardCharsets.US_ASCII);
            assertFalse(tail.endsWith("0\r\n\r\n"), "the chunked body did not end as a whole one does");
        }
        // the thread that wrote it is free, and a reader that reads gets the whole list
        given().get(configMaps(ns)).then().statusCode(200).body("items", hasSize(count));
    }

    @Test
    void overHttp2OnlyTheUnreadStreamIsResetAndTheConnectionServesOn() throws Exception {
        String ns = largeList("unread-h2");
        long cutBefore = cutOff();
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false).setHttp2MaxPoolSize(1));
        try {
            CompletableFuture<Throwable> ended = new CompletableFuture<>();
            HttpClientResponse unread = client.request(HttpMethod.GET, api.getPort(), api.getHost(), configMaps(ns))
                    .compose(HttpClientRequest::send)
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            unread.pause(); // no more window for the server to send in
            unread.exceptionHandler(ended::complete);
            unread.endHandler(v -> ended.complete(null));
            awaitCutOffAfter(cutBefore);
            unread.resume();
            assertTrue(ended.get(10, TimeUnit.SECONDS) instanceof StreamResetException, "the stream was reset");
            String version = client.request(HttpMethod.GET, api.getPort(), api.getHost(), "/version")
                    .compose(request -> request.send().compose(response -> response.body()
                            .map(body -> response.version() + " " + response.statusCode() + " " + body)))
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertTrue(version.startsWith("HTTP_2 200 "), version);
        } finally {
            client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private long cutOff() {
        String metrics = given().get(management.resolve("/q/metrics")).asString();
        Matcher m = Pattern.compile("(?m)^watchgate_responses_cut_off_total ([0-9.E+-]+)$")
                .matcher(metrics);
        assertTrue(m.find(), "watchgate_responses_cut_off_total is scraped");
        return (long) Double.parseDouble(m.group(1));
    }

    private static byte[] readUntilClosed(InputStream in) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                all.write(buffer, 0, n);
            }
        } catch (IOException reset) {
            // a reset connection ends the body as well as a closed one
        }
        return all.toByteArray();
    }
}
