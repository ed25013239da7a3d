package io.watchgate.watch;

import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Exactly once, in order: a watch started at resourceVersion R sees every later event of its collection once, in
 * revision order, however writes interleave with its attaching (history replay joining the live feed). What it
 * should see is what the writers were told: each acknowledged write's resourceVersion, as its response gave it.
 */
@QuarkusTest
class ExactlyOnceTest {

    private static final int WRITERS = 4;
    private static final int WRITES_PER_WRITER = 300;
    private static final int WATCHERS = 24;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Store store;

    private record Attached(WatchConnection stream, String namespace, long from) {
    }

    /** A write as its writer was told it was made: the resourceVersion and object of its answer. */
    private record Acknowledged(long revision, String type, String namespace, String name) {
        String asSeen() {
            return revision + " " + type + " " + name;
        }
    }

    @Test
    void watchersAttachingWhileFourWritersRunEachSeeExactlyTheEventsAfterTheirResourceVersion() throws Exception {
        List<String> namespaces = List.of(newNamespace("once-a"), newNamespace("once-b"));
        long start = store.currentRevision();
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        List<Future<List<Acknowledged>>> done = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            done.add(writers.submit(() -> write(writer, namespaces)));
        }
        Random random = new Random(42);
        List<Attached> watchers = new ArrayList<>();
        try {
            for (int i = 0; i < WATCHERS; i++) {
                // attach at a random recent revision while the writers are busy
                long target = start + (long) (i + 1) * WRITERS * WRITES_PER_WRITER / (WATCHERS + 2);
                while (store.currentRevision() < target && !allDone(done)) {
                    Thread.onSpinWait();
                }
                long current = store.currentRevision();
                long from = Math.max(start, current - random.nextInt(40));
                String namespace = i % 3 == 2 ? null : namespaces.get(i % 3);
                String path = namespace == null ? "/api/v1/configmaps" : configMaps(namespace);
                watchers.add(new Attached(WatchConnection.open(path + "?watch=true&resourceVersion=" + from),
                        namespace, from));
            }
            List<Acknowledged> acknowledged = new ArrayList<>();
            for (Future<List<Acknowledged>> writer : done) {
                acknowledged.addAll(writer.get(2, TimeUnit.MINUTES));
            }
            acknowledged.sort(Comparator.comparingLong(Acknowledged::revision));
            assertEquals(WRITERS * WRITES_PER_WRITER,
                    acknowledged.stream().mapToLong(Acknowledged::revision).distinct().count(),
                    "each write was told a revision of its own");
            for (Attached watcher : watchers) {
                List<String> expected = acknowledged.stream()
                        .filter(write -> write.revision() > watcher.from())
                        .filter(write -> watcher.namespace() == null || write.namespace().equals(watcher.namespace()))
                        .map(Acknowledged::asSeen)
                        .toList();
                List<String> seen = new ArrayList<>();
                while (seen.size() < expected.size()) {
                    JsonNode event = watcher.stream().next();
                    seen.add(WatchConnection.revision(event) + " " + WatchConnection.type(event) + " "
                            + WatchConnection.name(event));
                }
                assertEquals(expected, seen, "watch from " + watcher.from() + " of "
                        + (watcher.namespace() == null ? "all namespaces" : watcher.namespace()));
                assertEquals(null, watcher.stream().next(java.time.Duration.ofMillis(100)), "and nothing more");
            }
        } finally {
            writers.shutdownNow();
            watchers.forEach(w -> w.stream().close());
        }
    }

    private static boolean allDone(List<? extends Future<?>> futures) {
        return futures.stream().allMatch(Future::isDone);
    }

    /** Creates, updates and deletes this writer's own objects at random; returns what it was told of each write. */
    private static List<Acknowledged> write(int writer, List<String> namespaces) {
        List<Acknowledged> acknowledged = new ArrayList<>();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Random random = new Random(writer);
        boolean[] exists = new boolean[16];
        for (int i = 0; i < WRITES_PER_WRITER; i++) {
            int slot = random.nextInt(exists.length);
            String namespace = namespaces.get(slot % namespaces.size());
            String name = "w" + writer + "-" + slot;
            String collection = "http://localhost:" + RestAssured.port + configMaps(namespace);
            String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                    + "\"},\"data\":{\"i\":\"" + i + "\"}}";
            HttpRequest request;
            int expected;
            String type;
            if (!exists[slot]) {
                request = HttpRequest.newBuilder(URI.create(collection)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                expected = 201;
                type = "ADDED";
                exists[slot] = true;
            } else if (random.nextInt(3) == 0) {
                request = HttpRequest.newBuilder(URI.create(collection + "/" + name)).DELETE().build();
                expected = 200;
                type = "DELETED";
                exists[slot] = false;
            } else {
                request = HttpRequest.newBuilder(URI.create(collection + "/" + name))
                        .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body))
                        .build();
                expected = 200;
                type = "MODIFIED";
            }
            HttpResponse<String> response;
            JsonNode answer;
            try {
                response = client.send(request, HttpResponse.BodyHandlers.ofString());
                answer = JSON.readTree(response.body());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            if (response.statusCode() != expected) {
                throw new AssertionError(request + " answered " + response.statusCode() + ": " + response.body());
            }
            JsonNode metadata = answer.path("metadata");
            assertEquals(name, metadata.path("name").asText(), "the answer is the object written");
            acknowledged.add(new Acknowledged(Long.parseLong(metadata.path("resourceVersion").asText()), type,
                    namespace, name));
        }
        return acknowledged;
    }
}
