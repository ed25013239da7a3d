package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Clients that hold connections or requests without end: heads sent a byte a second, connections that send nothing,
 * writes whose bodies never come. Each loses its connection after its deadline, or its request a place past the
 * in-flight limit, while others are served meanwhile ({@link Hostile#OTHERS_WAIT}).
 */
@Isolated
class ConnectionsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HEAD_TIMEOUT_SECONDS = 2;
    private static final String COLLECTION = "/api/v1/namespaces/default/configmaps";
    private static final String WRITES_IN_FLIGHT = "watchgate_requests_inflight{kind=\"mutating\"}";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the app's log stays for a failure to be read
    static Path work;
    static HostileApp app;

    @BeforeAll
    static void start() throws Exception {
        app = HostileApp.start(work, "watchgate.http.request-head-timeout=" + HEAD_TIMEOUT_SECONDS + "s",
                "watchgate.api.max-mutating-requests-inflight=2");
    }

    @AfterAll
    static void stop() throws Exception {
        app.close();
    }

    @Test
    void headsSentAByteASecondAreCutAfterTheHeadTimeout() throws Exception {
        int count = 200;
        List<Socket> slow = new ArrayList<>();
        try {
            Hostile.whileOthersAreServed(app, () -> {
                for (int i = 0; i < count; i++) {
                    slow.add(new Socket("localhost", app.port()));
                }
                byte[] head = ("GET " + COLLECTION + " HTTP/1.1\r\nHost: localhost\r\nX-Padding: "
                        + "a".repeat(100) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
                long start = System.nanoTime();
                int open = count;
                // one byte a second on each, until the server has closed them all or the head would be whole
                for (int at = 0; at < head.length && open > 0; at++) {
                    open = 0;
                    for (Socket socket : slow) {
                        if (!socket.isClosed() && sendAndStillOpen(socket, head[at])) {
                            open++;
                        }
                    }
                    Thread.sleep(1000); // the attacker's pace
                }
                long seconds = (System.nanoTime() - start) / 1_000_000_000L;
                assertEquals(0, open, open + " slow heads still open after " + seconds + " s");
                assertTrue(seconds <= HEAD_TIMEOUT_SECONDS + 4, "cut after " + seconds + " s");
                return null;
            });
        } finally {
            closeAll(slow);
        }
    }

    @Test
    void twoThousandConnectionsThatSendNothingAreCutWhileOthersAreServed() throws Exception {
        List<Socket> silent = new ArrayList<>();
        try {
            Hostile.whileOthersAreServed(app, () -> {
                for (int i = 0; i < 2000; i++) {
                    silent.add(new Socket("localhost", app.port()));
                }
                // the server closes each after the head timeout: the last one opened, within a few seconds more
                Socket last = silent.get(silent.size() - 1);
                last.setSoTimeout((HEAD_TIMEOUT_SECONDS + 5) * 1000);
                try {
                    assertEquals(-1, last.getInputStream().read(), "the server sent something");
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("a silent connection still open after " + (HEAD_TIMEOUT_SECONDS + 5)
                            + " s");
                } catch (IOException e) {
                    // reset: closed too
                }
                return null;
            });
        } finally {
            closeAll(silent);
        }
    }

    @Test
    void writesPastTheInFlightLimitAreTooManyRequests() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            // two writes whose bodies never come hold both places for writes
            for (int i = 0; i < 2; i++) {
                Socket socket = new Socket("localhost", app.port());
                held.add(socket);
                socket.getOutputStream().write(("POST " + COLLECTION + " HTTP/1.1\r\nHost: localhost\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                        .getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().flush();
            }
            // they hold them once the server says so, which a moment after they were sent it does
            long deadline = System.nanoTime() + 10_000_000_000L;
            double inFlight;
            while ((inFlight = app.metric(WRITES_IN_FLIGHT)) < 2 && System.nanoTime() < deadline) {
                Thread.sleep(20); // polled until the deadline: the server's count decides
            }
            assertEquals(2, inFlight, "the held writes in flight, by the server's count (see " + app.log() + ")");
            HttpResponse<byte[]> refused = Hostile.whileOthersAreServed(app, () -> app.send(app.request(COLLECTION)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"past-the-limit\"}}"))));
            JsonNode status = Hostile.refused(refused, 429, "TooManyRequests");
            assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null));
            assertEquals(1, status.at("/details/retryAfterSeconds").asInt(), status.toString());
        } finally {
            closeAll(held);
        }
    }

    /** Sends one byte; false when the server has closed the connection (the write fails, or a read sees its end). */
    private static boolean sendAndStillOpen(Socket socket, byte b) throws IOException {
        try {
            socket.getOutputStream().write(b);
            socket.getOutputStream().flush();
            socket.setSoTimeout(1);
            InputStream in = socket.getInputStream();
            if (in.read() < 0) {
                socket.close();
                return false;
            }
            return true;
        } catch (SocketTimeoutException e) {
            return true;
        } catch (IOException e) {
            socket.close();
            return false;
        }
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing: nothing to do
            }
        }
    }
}
