package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * While writers create, update and delete, a paginated list at one snapshot returns exactly the state at its
 * resourceVersion. The test keeps its own model: every acknowledged write, by revision.
 */
@QuarkusTest
class SnapshotConsistencyTest {

    private static final int WRITERS = 3;
    private static final int KEYS = 40;
    private static final int PAGE = 7;

    /** What one acknowledged write left at its key: a value, or null for a delete. */
    private record Write(String name, String value) {
    }

    @Test
    void paginatedListsMatchTheModelAtTheirSnapshot() throws Exception {
        String ns = newNamespace("snapshot");
        long start = Api.currentRevision();
        Map<Long, Write> acknowledged = new ConcurrentSkipListMap<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            writers.add(pool.submit(() -> {
                int sequence = 0;
                while (writing.get()) {
                    // each writer owns its own keys, so it always knows whether a key exists
                    String name = "w" + writer + "-k" + ThreadLocalRandom.current().nextInt(KEYS / WRITERS);
                    write(ns, name, writer + "." + sequence++, acknowledged);
                }
                return null;
            }));
        }

        List<Long> checkedSnapshots = new ArrayList<>();
        for (int round = 0; round < 12; round++) {
            List<Map.Entry<String, String>> listed = new ArrayList<>();
            Response page = given().queryParam("limit", PAGE).get(configMaps(ns));
            long snapshot = Long.parseLong(page.path("metadata.resourceVersion"));
            while (true) {
                assertEquals(200, page.statusCode(), page.asString());
                assertEquals(Long.toString(snapshot), page.path("metadata.resourceVersion"));
                List<String> names = page.path("items.metadata.name");
                List<String> values = page.path("items.data.v");
                for (int i = 0; i < names.size(); i++) {
                    listed.add(Map.entry(names.get(i), values.get(i)));
                }
                String token = page.path("metadata.continue");
                if (token == null || token.isEmpty()) {
                    break;
                }
                page = given().queryParam("limit", PAGE).queryParam("continue", token).get(configMaps(ns));
            }
            checkedSnapshots.add(snapshot);
            final long at = snapshot;
            // the model is complete up to the snapshot once every write at or below it has been acknowledged
            waitUntilAcknowledged(acknowledged, start, at, writing);
            assertEquals(new ArrayList<>(modelAt(acknowledged, at).entrySet()), listed, "snapshot at " + at);
        }
        writing.set(false);
        for (Future<?> writer : writers) {
            writer.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertTrue(acknowledged.size() > 50, "writers made " + acknowledged.size() + " writes");
        assertTrue(checkedSnapshots.get(checkedSnapshots.size() - 1) > checkedSnapshots.get(0));
    }

    private static void write(String ns, String name, String value, Map<Long, Write> acknowledged) {
        String body = "{\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"v\":\"" + value + "\"}}";
        Response response;
        boolean delete = ThreadLocalRandom.current().nextInt(4) == 0;
        if (delete) {
            response = given().delete(configMaps(ns) + "/" + name);
            if (response.statusCode() == 404) {
                return;
            }
        } else {
            response = given().contentType(ContentType.JSON).body(body).put(configMaps(ns) + "/" + name);
            if (response.statusCode() == 404) {
                response = given().contentType(ContentType.JSON).body(body).post(configMaps(ns));
            }
        }
        assertTrue(response.statusCode() == 200 || response.statusCode() == 201, response.asString());
        long revision = Long.parseLong(response.path("metadata.resourceVersion"));
        acknowledged.put(revision, new Write(name, delete ? null : value));
    }

    /** Every revision in (start, at] belongs to one of our writes; wait until each has been acknowledged. */
    private static void waitUntilAcknowledged(Map<Long, Write> acknowledged, long start, long at, AtomicBoolean writing)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (((ConcurrentSkipListMap<Long, Write>) acknowledged).subMap(start, false, at, true).size() < at - start) {
            assertTrue(System.nanoTime() < deadline, "writes up to " + at + " were never acknowledged");
            Thread.onSpinWait();
        }
    }

    private static TreeMap<String, String> modelAt(Map<Long, Write> acknowledged, long revision) {
        TreeMap<String, String> state = new TreeMap<>();
        ((ConcurrentSkipListMap<Long, Write>) acknowledged).headMap(revision, true).values().forEach(write -> {
            if (write.value() == null) {
                state.remove(write.name());
            } else {
                state.put(write.name(), write.value());
            }
        });
        return state;
    }
}
