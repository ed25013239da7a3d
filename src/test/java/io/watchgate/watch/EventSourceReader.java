package io.watchgate.watch;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads an event stream as an EventSource would, keeping the comment lines it sees on the way. */
public final class EventSourceReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One parsed event-stream event (comments and retry hints are kept apart). */
    public record Sse(String id, String event, String data) {
        public JsonNode json() {
            try {
                return JSON.readTree(data);
            } catch (Exception e) {
                throw new AssertionError("data is not JSON: " + data, e);
            }
        }

        public String name() {
            return json().path("metadata").path("name").asText();
        }
    }

    private final WatchConnection stream;
    public final List<String> comments = new ArrayList<>();
    public String retry;

    public EventSourceReader(WatchConnection stream) {
        this.stream = stream;
    }

    /** The next event, or null when none came within {@code wait} or the stream ended. */
    public Sse next(Duration wait) {
        String id = null;
        String event = null;
        StringBuilder data = null;
        while (true) {
            String line = stream.nextLine(wait);
            if (line == null) {
                return null;
            }
            if (line.isEmpty()) {
                if (data != null) {
                    return new Sse(id, event, data.toString());
                }
                continue;
            }
            if (line.startsWith(":")) {
                comments.add(line);
            } else if (line.startsWith("retry: ")) {
                retry = line.substring(7);
            } else if (line.startsWith("id: ")) {
                id = line.substring(4);
            } else if (line.equals("id")) {
                id = ""; // clears the EventSource's last event id
            } else if (line.startsWith("event: ")) {
                event = line.substring(7);
            } else if (line.startsWith("data: ")) {
                data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(6));
            } else {
                throw new AssertionError("not an event-stream line: " + line);
            }
        }
    }

    public Sse next() {
        Sse sse = next(Duration.ofSeconds(10));
        assertNotNull(sse, "no event within 10 s");
        return sse;
    }

    /** The next event that is not a bookmark. */
    public Sse nextChange() {
        Sse sse = next();
        while (sse.event().equals("BOOKMARK")) {
            sse = next();
        }
        return sse;
    }
}
