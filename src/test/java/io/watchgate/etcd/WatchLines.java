package io.watchgate.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A watch over HTTP read a line (an event) at a time on a thread of its own, for a test to take events from. */
final class WatchLines implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What the queue holds once the server ended the stream. */
    private static final JsonNode ENDED = JSON.createObjectNode().put("type", "(stream ended)");

    private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
    private final InputStream body;

    private WatchLines(InputStream body) {
        this.body = body;
        Thread reader = new Thread(this::read, "watch-lines");
        reader.setDaemon(true);
        reader.start();
    }

    static WatchLines open(URI uri) throws Exception {
        HttpResponse<InputStream> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofInputStream())
                .get(10, TimeUnit.SECONDS);
        if (response.statusCode() != 200) {
            throw new AssertionError("watch " + uri + " answered " + response.statusCode() + ": "
                    + new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
        }
        return new WatchLines(response.body());
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                events.add(JSON.readTree(line));
            }
        } catch (IOException e) {
            // closed by the test, or the server died
        }
        events.add(ENDED);
    }

    /** The next event, waiting at most {@code within}. */
    JsonNode next(Duration within) throws InterruptedException {
        JsonNode event = events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        if (event == null) {
            throw new AssertionError("no event within " + within);
        }
        return event;
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
