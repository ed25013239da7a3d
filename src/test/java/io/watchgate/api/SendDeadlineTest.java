package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.StreamResetException;
import io.watchgate.http.ShortDeadlines;
import io.watchgate.metrics.Samples;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A client that asks for a large list and stops reading does not keep the thread writing it: the response is cut
 * off at the send deadline, and the server goes on serving.
 */
@QuarkusTest
@TestProfile(ShortDeadlines.class)
class SendDeadlineTest {

    @TestHTTPResource("/")
    URI api;

    @Inject
    Vertx vertx;

    @TestHTTPResource(value = "/", management = true)
    URI management;

    /** Near a ConfigMap's 1 MiB of data: few objects to create for a list of many megabytes. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VALUE = "x".repeat(960 * 1024);
    private static final int COUNT = 14; // 13 MB: more than the socket buffers between server and client hold

    private static String largeList(String prefix) {
        String ns = newNamespace(prefix);
        for (int i = 0; i < COUNT; i++) {
            createOk(configMaps(ns), configMap(String.format("cm-%02d", i), "\"data\":{\"v\":\"" + VALUE + "\"}"));
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

    /** Sends {@code method path} over HTTP/1.1, reads nothing until the server cuts it off, then all there is. */
    private byte[] unread(String method, String path) throws Exception {
        return unread(method, path, () -> { });
    }

    /** As {@link #unread(String, String)}, and runs {@code whileUnread} once cut off, before reading anything. */
    private byte[] unread(String method, String path, ThrowingRunnable whileUnread) throws Exception {
        long cutBefore = cutOff();
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(4096);
            client.connect(new InetSocketAddress(api.getHost(), api.getPort()));
            client.setSoTimeout(20_000); // a body that is never cut fails the test rather than hang it
            client.getOutputStream().write((method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            client.getOutputStream().flush();
            awaitCutOffAfter(cutBefore);
            whileUnread.run();
            return readUntilClosed(client.getInputStream());
        }
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static void assertCutShort(byte[] received) {
        assertTrue(received.length < COUNT * VALUE.length(), "only part of the list arrived: " + received.length);
        String tail = new String(received, Math.max(0, received.length - 16), Math.min(16, received.length),
                StandardCharsets.US_ASCII);
        assertFalse(tail.endsWith("0\r\n\r\n"), "the chunked body did not end as a whole one does");
    }

    @Test
    void aLargeListItsClientStoppedReadingIsCutOffAtTheDeadline() throws Exception {
        String ns = largeList("unread");
        assertCutShort(unread("GET", configMaps(ns)));
        // the thread that wrote it is free, and a reader that reads gets the whole list
        assertEquals(COUNT, items(configMaps(ns)));
    }

    @Test
    void aCollectionDeletedForAClientThatStoppedReadingIsDeletedAndCountsAsClosed() throws Exception {
        String ns = largeList("unread-delete");
        String closed = "watchgate_writes_total{code=\"closed\",dry_run=\"\",resource=\"configmaps\","
                + "subresource=\"\",verb=\"deletecollection\"}";
        String ok = closed.replace("closed", "200");
        double closedBefore = sample(closed);
        double okBefore = sample(ok);
        // closed at once, not once its client reads what was queued: the writer's thread is free meanwhile
        assertCutShort(unread("DELETE", configMaps(ns), () -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sample(closed) == closedBefore) {
                assertTrue(System.nanoTime() < deadline, "the cut-off deletecollection was not counted as closed "
                        + "while its client read nothing");
                Thread.sleep(50);
            }
        }));
        assertEquals(closedBefore + 1, sample(closed));
        assertEquals(okBefore, sample(ok), "not as a 200 its client never got whole");
        assertEquals(0, items(configMaps(ns)));
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

    /** The number of items a list reads whole (Jackson: RestAssured's path reading takes seconds on 13 MB). */
    private static int items(String list) throws IOException {
        byte[] body = given().get(list).then().statusCode(200).extract().asByteArray();
        return JSON.readTree(body).path("items").size();
    }

    private long cutOff() {
        String metrics = Samples.scrape(management);
        assertTrue(metrics.contains("\nwatchgate_responses_cut_off_total "), "the cut-offs are scraped");
        return (long) sample("watchgate_responses_cut_off_total");
    }

    private double sample(String series) {
        return Samples.valueOr0(Samples.scrape(management), series);
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
