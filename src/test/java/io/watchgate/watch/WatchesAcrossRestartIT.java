package io.watchgate.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.persistence.PackagedApp;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watches resumed across a crash and restart of the durable server, as clients resume them: a watch from the
 * resourceVersion it had reached, and a stream with its Last-Event-ID. Each goes on after that point with nothing lost
 * or repeated; from a point older than the restarted server's history, the watch gets a 410 and the stream one 410
 * for all its watches.
 */
class WatchesAcrossRestartIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String MAPS = "/api/v1/namespaces/default/configmaps";
    private static final String SECRETS = "/api/v1/namespaces/default/secrets";

    @TempDir
    Path dir;

    /** One event as its client reads it: its id, and "watch TYPE name resourceVersion". */
    private record Read(String id, String event) {
    }

    @Test
    void aWatchAndAStreamResumeAcrossACrashAndRestartWithinTheHistoryAnd410OutsideIt() throws Exception {
        Path data = dir.resolve("data");
        List<String> written = new ArrayList<>();
        String lastEventId = null;
        String stream;
        String from;
        List<String> before = new ArrayList<>();
        try (PackagedApp app = PackagedApp.start(data, dir.resolve("first.log"))) {
            from = JSON.readTree(app.get(MAPS).body()).at("/metadata/resourceVersion").asText();
            stream = "/streams?watch=" + encode(MAPS + "?resourceVersion=" + from) + "&watch="
                    + encode(SECRETS + "?resourceVersion=" + from);
            for (int i = 0; i < 20; i++) {
                written.add(write(app, i));
            }
            try (BufferedReader events = open(app, stream, null)) {
                while (before.size() < 20) {
                    Read read = next(events);
                    if (read.event() != null) {
                        before.add(read.event());
                        lastEventId = read.id();
                    }
                }
            }
            for (int i = 20; i < 40; i++) {
                written.add(write(app, i)); // acknowledged, and never read before the crash
            }
            app.kill();
        }
        try (PackagedApp app = PackagedApp.start(data, dir.resolve("second.log"))) {
            for (int i = 40; i < 50; i++) {
                written.add(write(app, i));
            }
            List<String> after = new ArrayList<>();
            try (BufferedReader events = open(app, stream, lastEventId)) {
                while (after.size() < 30) {
                    Read read = next(events);
                    if (read.event() != null) {
                        after.add(read.event());
                    }
                }
            }
            List<String> all = new ArrayList<>(before);
            all.addAll(after);
            assertEquals(written, all.stream().map(e -> e.substring(e.indexOf(' ') + 1)).toList(),
                    "every write once, in order, on the watch of its type");

            // a plain watch from before the crash: the ConfigMaps written since, before and after it, once each
            List<String> maps = new ArrayList<>();
            for (int i = 0; i < written.size(); i += 2) {
                maps.add(written.get(i));
            }
            // (ended by the server after 30 s, so that an event that never comes fails the test instead of hanging it)
            String fromThen = MAPS + "?watch=true&resourceVersion=" + from + "&timeoutSeconds=30";
            try (BufferedReader lines = watch(app, fromThen)) {
                List<String> events = new ArrayList<>();
                while (events.size() < maps.size()) {
                    events.add(event(lines, events));
                }
                assertEquals(maps, events, "exactly the changes after " + from + ", across the crash");
                // and nothing more: the next event is a write made now
                String marker = write(app, 50);
                assertEquals(marker, event(lines, events), "the write after them, and nothing before it");
            }
        }
        try (PackagedApp app = PackagedApp.start(data, dir.resolve("third.log"), "watchgate.history.max-revisions=2")) {
            // a history of 2 revisions: the 50 written since no longer fit
            try (BufferedReader lines = watch(app, MAPS + "?watch=true&timeoutSeconds=5&resourceVersion=" + from)) {
                String line = lines.readLine();
                assertNotNull(line, "the watch ended without its error");
                JsonNode error = JSON.readTree(line);
                assertEquals("ERROR", error.path("type").asText(), line);
                assertEquals(410, error.at("/object/code").asInt(), line);
            }
            try (BufferedReader events = open(app, stream, lastEventId)) {
                String id = null;
                String dataLine = null;
                for (String line = events.readLine(); dataLine == null; line = events.readLine()) {
                    assertNotNull(line, "the stream ended before its error");
                    if (line.startsWith("id")) {
                        id = line;
                    } else if (line.startsWith("data: ")) {
                        dataLine = line.substring(6);
                    }
                }
                JsonNode error = JSON.readTree(dataLine);
                assertEquals("ERROR", error.path("type").asText());
                assertEquals(410, error.at("/object/code").asInt(), dataLine);
                assertEquals("id", id, "the EventSource forgets its last id");
            }
        }
    }

    /** Writes one ConfigMap (even i) or Secret (odd i), and returns "TYPE name resourceVersion" as a watch sees it. */
    private static String write(PackagedApp app, int i) throws Exception {
        boolean map = i % 2 == 0;
        HttpResponse<String> created = app.post(map ? MAPS : SECRETS, "{\"metadata\":{\"name\":\"o" + i + "\"}}");
        assertEquals(201, created.statusCode(), created.body());
        return "ADDED o" + i + " " + JSON.readTree(created.body()).at("/metadata/resourceVersion").asText();
    }

    /** The next event of a plain watch, as {@link #write} describes it; the ones read before it for a failure. */
    private static String event(BufferedReader lines, List<String> before) throws Exception {
        String line = lines.readLine();
        assertNotNull(line, "the watch ended after " + before);
        JsonNode event = JSON.readTree(line);
        return event.path("type").asText() + " " + event.at("/object/metadata/name").asText() + " "
                + event.at("/object/metadata/resourceVersion").asText();
    }

    /** A plain watch, as a list of JSON lines. */
    private static BufferedReader watch(PackagedApp app, String path) throws Exception {
        HttpResponse<InputStream> response = CLIENT.send(HttpRequest.newBuilder(app.uri(path)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    private static BufferedReader open(PackagedApp app, String path, String lastEventId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(app.uri(path)).header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    /** The next event: its change as "watch TYPE name resourceVersion", or null for a bookmark. */
    private static Read next(BufferedReader events) throws Exception {
        String id = null;
        String data = null;
        for (String line = events.readLine(); ; line = events.readLine()) {
            assertNotNull(line, "the stream ended");
            if (line.startsWith("id: ")) {
                id = line.substring(4);
            } else if (line.startsWith("data: ")) {
                data = line.substring(6);
            } else if (line.isEmpty() && data != null) {
                break;
            }
        }
        JsonNode event = JSON.readTree(data);
        if (event.path("type").asText().equals("BOOKMARK")) {
            return new Read(id, null);
        }
        JsonNode metadata = event.path("object").path("metadata");
        String watch = event.path("watch").asText().startsWith(MAPS) ? "maps" : "secrets";
        return new Read(id, watch + " " + event.path("type").asText() + " " + metadata.path("name").asText() + " "
                + metadata.path("resourceVersion").asText());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
