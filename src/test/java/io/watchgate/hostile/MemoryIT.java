package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Legal workloads that used to exhaust the heap: megabyte objects written again and again under watches that read,
 * that stop reading, or that stop reading in the middle of their initial events. In a heap of {@link #HEAP} the
 * server must stay within its memory budget (shedding cached frames, then stalled watchers, then writes), never run
 * out of memory, and keep serving everyone else.
 */
@Isolated
class MemoryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient STREAMS = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    /** A ConfigMap of about 1 MB: 15 values of 64 KiB (a ConfigMap's data may hold 1 MiB at most). */
    private static final int VALUES = 15;
    private static final int VALUE_BYTES = 64 * 1024;
    /**
     * Half the other hostile apps' heap, so that {@link #PATCHES} versions are more than it holds with half the
     * writes (these tests took 47 s of CPU at 512 MiB and 600 patches, 35 s now).
     */
    private static final String HEAP = "-Xmx256m";
    /** 300 versions of 1 MiB: more than the heap, were their frames kept regardless of size. */
    private static final int PATCHES = 300;
    /**
     * Watches that stop reading in their initial events of 40 MiB: together their snapshots are 8 GB, and each
     * connection takes megabytes into its kernel buffers before it stops. Before the watchers took turns on their
     * loops, another client's read waited 1.0-1.3 s behind their stretches here; since, 0.25-0.45 s (0.4-0.6 s with
     * 300 watches, which leaves too little margin on a 2-core machine).
     */
    private static final int STALLED_IN_SNAPSHOT = 200;
    /**
     * Rounds of changes to the 40 objects (a round is about 40 MB) that may go by before every stalled watch has been
     * ended: a watch stalls only once its connection's buffers are full, which takes it a few turns on its loop, so
     * when it stalls is the server's to say; but from then on, more than {@code max-backlog-bytes} (64 MiB, two
     * rounds) ends it. Ten rounds leave it time to stall, and would never end a watch that is not bounded.
     */
    private static final int MAX_ROUNDS = 10;
    private static final String ENDED_SLOW = "its client stopped reading";

    @TempDir
    static Path work;
    static HostileApp app;

    @BeforeAll
    static void start() throws Exception {
        app = HostileApp.startWithHeap(HEAP, work);
    }

    @AfterAll
    static void stop() throws Exception {
        app.close();
    }

    @Test
    void aReadingWatchSeesEveryVersionOfAMegabyteObjectPatchedThreeHundredTimes() throws Exception {
        long created = create("big-read", null);
        String watch = CONFIGMAPS + "?watch=1&fieldSelector=metadata.name%3Dbig-read&resourceVersion=";
        List<Long> seen = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> readResuming(watch, created, seen), "reading watch");
        reader.start();

        List<Long> written = Hostile.whileOthersAreServed(app, () -> patchAll("big-read", PATCHES));

        reader.join(Duration.ofSeconds(90).toMillis());
        reader.interrupt();
        assertEquals(written, seen, "every version, once, in order");
    }

    @Test
    void aWatchThatStopsReadingIsEndedWhileTheObjectGoesOnChanging() throws Exception {
        create("big-stalled", null);
        try (Socket stalled = watchNotReading(CONFIGMAPS + "?watch=1&fieldSelector=metadata.name%3Dbig-stalled")) {
            Hostile.whileOthersAreServed(app, () -> patchAll("big-stalled", PATCHES));

            assertEndedByTheServer(stalled);
        }
        assertTrue(app.logSinceWarmUp().contains(ENDED_SLOW), "the end is logged");
    }

    @Test
    void watchesThatStopReadingInTheirInitialEventsAreBoundedLikeAnyOther() throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            names.add("snap-" + i);
            create("snap-" + i, "snapshot");
        }
        String watch = CONFIGMAPS + "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                + "&allowWatchBookmarks=true&labelSelector=set%3Dsnapshot";
        List<Socket> stalled = new ArrayList<>();
        List<Socket> streaming = new ArrayList<>();
        int endedBefore = endedSlow();
        try {
            // each pins a megabyte frame and its queue: together more than the memory budget
            Hostile.whileOthersAreServed(app, () -> {
                for (int i = 0; i < STALLED_IN_SNAPSHOT; i++) {
                    stalled.add(watchNotReading(watch));
                }
                // each has been refused, or has begun its initial events (which come with the head) and so stops
                // at once: none starts after the changes below, which would leave it nothing to fall behind on
                for (Socket socket : stalled) {
                    if (answeredWithAStream(socket)) {
                        streaming.add(socket);
                    }
                }
                // and the objects they were being sent change, round after round, until each has been ended
                Set<Long> written = new HashSet<>();
                int rounds = 0;
                while (endedSlow() - endedBefore < streaming.size() && rounds < MAX_ROUNDS) {
                    for (String name : names) {
                        written.add(patch(name, "round " + rounds));
                    }
                    rounds++;
                }
                assertEquals(rounds * names.size(), written.size(), "every patch wrote a new version");
                return null;
            });
            for (Socket socket : streaming) {
                assertEndedByTheServer(socket);
            }
            // (a watch ended before its head was read is logged too)
            assertTrue(endedSlow() - endedBefore >= streaming.size(), "each end is logged");
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    /** How many watches the app has ended so far for a client that stopped reading, by its log. */
    private static int endedSlow() throws IOException {
        String log = app.logSinceWarmUp();
        int count = 0;
        for (int at = log.indexOf(ENDED_SLOW); at >= 0; at = log.indexOf(ENDED_SLOW, at + 1)) {
            count++;
        }
        return count;
    }

    /** Creates a ConfigMap of about 1 MiB, labelled {@code set} if given; returns its resourceVersion. */
    private static long create(String name, String set) throws Exception {
        StringBuilder body = new StringBuilder("{\"metadata\":{\"name\":\"").append(name).append('"');
        if (set != null) {
            body.append(",\"labels\":{\"set\":\"").append(set).append("\"}");
        }
        body.append("},\"data\":{");
        String value = "v".repeat(VALUE_BYTES);
        for (int i = 0; i < VALUES; i++) {
            body.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"").append(value).append('"');
        }
        body.append("}}");
        HttpResponse<byte[]> response = sendAdmitted(app.request(CONFIGMAPS).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
        assertEquals(201, response.statusCode(), () -> new String(response.body(), StandardCharsets.UTF_8));
        return resourceVersion(JSON.readTree(response.body()));
    }

    /** Merge-patches one key of {@code name}, {@code times} times; returns the resourceVersions written. */
    private static List<Long> patchAll(String name, int times) throws Exception {
        List<Long> written = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            written.add(patch(name, Integer.toString(i)));
        }
        return written;
    }

    /** Merge-patches {@code name}'s key {@code n} to {@code value}; returns the resourceVersion of the result. */
    private static long patch(String name, String value) throws Exception {
        HttpResponse<byte[]> response = sendAdmitted(app.request(CONFIGMAPS + "/" + name)
                .header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"data\":{\"n\":\"" + value + "\"}}")));
        assertEquals(200, response.statusCode(), () -> new String(response.body(), StandardCharsets.UTF_8));
        return resourceVersion(JSON.readTree(response.body()));
    }

    /** Sends a write, waiting as told while it is refused for want of memory. */
    private static HttpResponse<byte[]> sendAdmitted(HttpRequest.Builder request) throws Exception {
        return Hostile.admitted(() -> app.send(request), 31, new AtomicInteger());
    }

    /**
     * Reads the watch from {@code from} until it has seen {@link #PATCHES} versions, re-watching from the last
     * version seen whenever the server ends it (the resume path of a client that fell behind).
     */
    private static void readResuming(String watch, long from, List<Long> seen) {
        long last = from;
        try {
            while (seen.size() < PATCHES && !Thread.currentThread().isInterrupted()) {
                try (InputStream body = openWatch(watch + last)) {
                    BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
                    String line;
                    while (seen.size() < PATCHES && (line = lines.readLine()) != null) {
                        JsonNode event = JSON.readTree(line);
                        if (!event.path("type").asText().equals("MODIFIED")) {
                            fail("unexpected " + line.substring(0, Math.min(300, line.length())));
                        }
                        last = resourceVersion(event.path("object"));
                        seen.add(last);
                    }
                } catch (IOException e) {
                    // the server ended the watch: re-watch from the last version seen
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static InputStream openWatch(String path) throws Exception {
        HttpResponse<InputStream> response = STREAMS.send(
                app.request(path).timeout(Duration.ofSeconds(120)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        return response.body();
    }

    /** A watch whose client takes in only what its small socket buffer holds, and reads nothing after. */
    private static Socket watchNotReading(String path) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(64 * 1024);
        socket.connect(new InetSocketAddress("localhost", app.port()), 2000);
        socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return socket;
    }

    /**
     * Whether the watch on {@code socket} was answered with the head of a stream (200), rather than refused for want
     * of memory (429 with Retry-After) or closed before its head; reads no further than the head.
     */
    private static boolean answeredWithAStream(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        try {
            while (head.indexOf("\r\n\r\n") < 0 && head.length() < 8192) {
                int b = in.read();
                if (b < 0) {
                    return false; // ended before its head was read: closed at once
                }
                head.append((char) b);
            }
        } catch (SocketTimeoutException e) {
            fail("a stalled watch was never answered");
        } catch (IOException e) {
            return false; // reset by the server
        }
        if (head.toString().startsWith("HTTP/1.1 429")) {
            assertTrue(head.toString().toLowerCase().contains("retry-after:"), head.toString());
            return false;
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 200"), head.toString());
        return true;
    }

    /** Reads what is left of a stalled watch: the server must have closed it (ended the watch) by now. */
    private static void assertEndedByTheServer(Socket socket) throws IOException {
        socket.setSoTimeout(30_000);
        byte[] buffer = new byte[1 << 16];
        InputStream in = socket.getInputStream();
        try {
            while (in.read(buffer) >= 0) {
                // drain what was queued before the end
            }
        } catch (SocketTimeoutException e) {
            fail("a stalled watch was never ended: its connection is still open");
        } catch (IOException e) {
            // reset by the server: ended as a client that stopped reading
        }
    }

    private static long resourceVersion(JsonNode object) {
        return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
    }
}
