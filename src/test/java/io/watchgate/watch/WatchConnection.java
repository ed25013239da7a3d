package io.watchgate.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A client's view of one watch stream: its response head, then its lines as they arrive. */
public final class WatchConnection implements AutoCloseable {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String END = "\u0000end";

    private final HttpResponse<Stream<String>> response;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private volatile boolean ended;

    private WatchConnection(HttpResponse<Stream<String>> response) {
        this.response = response;
        Thread reader = new Thread(() -> {
            try (Stream<String> body = response.body()) {
                body.forEach(lines::add);
            } catch (UncheckedIOException | IllegalStateException e) {
                // the stream was closed or cut off: both end it
            } finally {
                lines.add(END);
            }
        }, "watch-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens {@code pathAndQuery} and returns once the response head has arrived. */
    public static WatchConnection open(String pathAndQuery, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                URI.create("http://localhost:" + RestAssured.port + pathAndQuery)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            return new WatchConnection(CLIENT.sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines())
                    .get(10, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new AssertionError("the watch " + pathAndQuery + " did not answer", e);
        }
    }

    public int status() {
        return response.statusCode();
    }

    public String header(String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    /** The next line, or null if none came within {@code wait} or the stream has ended. */
    public String nextLine(Duration wait) {
        if (ended) {
            return null;
        }
        try {
            String line = lines.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
            if (END.equals(line)) {
                ended = true;
                return null;
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The next watch event, or null if none came within {@code wait}. */
    public JsonNode next(Duration wait) {
        String line = nextLine(wait);
        try {
            return line == null ? null : JSON.readTree(line);
        } catch (Exception e) {
            throw new AssertionError("a watch line is not JSON: " + line, e);
        }
    }

    public JsonNode next() {
        JsonNode event = next(Duration.ofSeconds(10));
        if (event == null) {
            throw new AssertionError("no watch event within 10 s" + (ended ? " (the stream ended)" : ""));
        }
        return event;
    }

    /** The next {@code count} events, skipping bookmarks. */
    List<JsonNode> nextEvents(int count) {
        List<JsonNode> events = new ArrayList<>();
        while (events.size() < count) {
            JsonNode event = next();
            if (!event.path("type").asText().equals("BOOKMARK")) {
                events.add(event);
            }
        }
        return events;
    }

    /** Whether the server ended the stream within {@code wait}, reading (and dropping) lines until it does. */
    public boolean endsWithin(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!ended && System.nanoTime() < deadline) {
            nextLine(Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
        }
        return ended;
    }

    /** Lines received so far and not yet taken. */
    List<String> drainLines() {
        List<String> taken = new ArrayList<>();
        lines.drainTo(taken);
        if (taken.remove(END)) {
            ended = true;
        }
        return taken;
    }

    @Override
    public void close() {
        response.body().close();
    }

    public static String type(JsonNode event) {
        return event.path("type").asText();
    }

    public static String name(JsonNode event) {
        return event.path("object").path("metadata").path("name").asText();
    }

    static long revision(JsonNode event) {
        return Long.parseLong(event.path("object").path("metadata").path("resourceVersion").asText());
    }
}
