package io.watchgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client must send its request head, then its body, within the configured times (one second each here), or lose
 * its connection; a response being sent has no such limit, so watches of every form outlive them.
 */
@QuarkusTest
@TestProfile(ShortDeadlines.class)
class SlowClientsTest {

    private static final String READ = "GET /api/v1/namespaces/default HTTP/1.1\r\nHost: localhost\r\n\r\n";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void aRequestHasReachedTheServer() throws Exception {
        // the deadlines go into the connections accepted after the first request the server serves
        assertEquals(200, CLIENT.send(HttpRequest.newBuilder(uri("/version")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode());
    }

    @Test
    void aHeadSentAByteAtATimeLosesItsConnection() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            long start = System.nanoTime();
            boolean closed = false;
            for (byte b : READ.getBytes(StandardCharsets.ISO_8859_1)) {
                try {
                    out.write(b);
                    out.flush();
                } catch (IOException e) {
                    closed = true;
                    break;
                }
                if (readsEnd(socket, 300)) {
                    closed = true;
                    break;
                }
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(closed, "the head was sent whole over " + millis + " ms");
            assertTrue(millis < 5_000, "closed after " + millis + " ms");
        }
    }

    @Test
    void aHeadNeverEndedLosesItsConnection() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET /api/v1/namespaces/default HTTP/1.1\r\nHost: loc".getBytes());
            assertTrue(readsEnd(socket, 5_000), "still open after 5 s");
        }
    }

    @Test
    void aBodyNeverEndedLosesItsConnection() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(("POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"metadata\":").getBytes());
            assertTrue(readsEnd(socket, 5_000), "still open after 5 s");
        }
    }

    @Test
    void aKeptAliveConnectionMayWaitUpToTheKeepAliveTimeout() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(READ.getBytes(StandardCharsets.ISO_8859_1));
            String first = readResponseHead(socket);
            assertTrue(first.startsWith("HTTP/1.1 200"), first);
            assertTrue(readsEnd(socket, 5_000), "an idle kept-alive connection still open after 5 s");
        }
    }

    @Test
    void aChunkedWatchOutlivesEveryDeadline() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(("GET /api/v1/namespaces?watch=true HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            String head = readResponseHead(socket);
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            // silent but for its initial events: still open well after every deadline
            assertTrue(!readsEnd(socket, 3_000), "the watch was cut");
        }
    }

    @Test
    void anEventStreamOutlivesEveryDeadline() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(("GET /api/v1/namespaces?watch=true HTTP/1.1\r\nHost: localhost\r\n"
                    + "Accept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            String head = readResponseHead(socket);
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertTrue(!readsEnd(socket, 3_000), "the event stream was cut");
        }
    }

    @Test
    void aWebSocketWatchOutlivesEveryDeadline() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        BlockingQueue<Integer> closes = new LinkedBlockingQueue<>();
        WebSocket socket = CLIENT.newWebSocketBuilder().buildAsync(
                URI.create("ws://localhost:" + RestAssured.port + "/api/v1/namespaces?watch=true"),
                new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        events.add(data.toString());
                        webSocket.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        closes.add(statusCode);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        try {
            assertEquals(null, closes.poll(3, TimeUnit.SECONDS), "the WebSocket was closed");
            events.clear();
            HttpResponse<String> created = CLIENT.send(HttpRequest.newBuilder(uri("/api/v1/namespaces"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"after-deadlines-"
                            + System.nanoTime() + "\"}}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
            assertTrue(events.poll(10, TimeUnit.SECONDS) != null, "no event after the deadlines went by");
        } finally {
            socket.abort();
        }
    }

    @Test
    void othersAreServedMeanwhile() throws Exception {
        try (Socket slow = connect()) {
            slow.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes());
            HttpResponse<String> read = CLIENT.send(HttpRequest.newBuilder(uri("/api/v1/namespaces/default")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, read.statusCode());
        }
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("localhost", RestAssured.port);
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static URI uri(String path) {
        return URI.create("http://localhost:" + RestAssured.port + path);
    }

    /** Whether the server closed the connection within {@code millis}, whatever it sent before. */
    private static boolean readsEnd(Socket socket, int millis) throws IOException {
        socket.setSoTimeout(millis);
        long deadline = System.nanoTime() + millis * 1_000_000L;
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        try {
            while (System.nanoTime() < deadline) {
                if (in.read(buffer) < 0) {
                    return true;
                }
            }
            return false;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        } finally {
            socket.setSoTimeout(10_000);
        }
    }

    private static String readResponseHead(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] bytes = head.toByteArray();
            int n = bytes.length;
            if (n >= 4 && new String(bytes, n - 4, 4, StandardCharsets.ISO_8859_1).equals("\r\n\r\n")) {
                break;
            }
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
