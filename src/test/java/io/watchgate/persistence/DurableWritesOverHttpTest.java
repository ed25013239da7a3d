package io.watchgate.persistence;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.watchgate.metrics.Samples;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import jakarta.inject.Inject;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.Socket;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Writes through the API in durable mode, with a disk that stalls or fails: a write behind one waiting for the
 * disk computes on top of it instead of spinning on the event loop until it lands, and a failed sync answers 503.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestProfile(Durable.class)
class DurableWritesOverHttpTest {

    /** The management interface, where health and metrics are served. */
    @TestHTTPResource(value = "/", management = true)
    URI management;

    @TestHTTPResource("/")
    URI api;

    @Inject
    Store store;

    @Inject
    StorageProducer storage;

    /** Wraps the WAL's segment so its syncs wait for {@code disk} (and fail while {@code failing}). */
    private Runnable stall(CountDownLatch disk, AtomicBoolean failing) throws Exception {
        WriteAheadLog wal = storage.log().orElseThrow();
        Field segmentField = WriteAheadLog.class.getDeclaredField("segment");
        segmentField.setAccessible(true);
        Field lockField = WriteAheadLog.class.getDeclaredField("queueLock");
        lockField.setAccessible(true);
        Object lock = lockField.get(wal);
        FileChannel original;
        synchronized (lock) {
            original = (FileChannel) segmentField.get(wal);
            segmentField.set(wal, new FailingChannel(original, failing, disk));
        }
        return () -> {
            synchronized (lock) {
                try {
                    segmentField.set(wal, original);
                } catch (IllegalAccessException e) {
                    throw new RuntimeException(e);
                }
            }
        };
    }

    /** Waits, up to 10 s, until the store's writers see {@code landed}: the write is taken, maybe not yet durable. */
    private void awaitTaken(Predicate<Store> landed, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!landed.test(store)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " was not taken while the disk stalled");
            }
            Thread.sleep(10);
        }
    }

    private static int patch(String path, String body) {
        return given().contentType("application/merge-patch+json").body(body).patch(path).statusCode();
    }

    /**
     * With the disk stalled, makes the first write and then the second, each once the one before is taken; then
     * lets the disk go and returns both answers.
     */
    private List<Integer> oneBehindTheOther(Supplier<Integer> first, Predicate<Store> firstTaken,
            Supplier<Integer> second, Predicate<Store> secondTaken) throws Exception {
        CountDownLatch disk = new CountDownLatch(1);
        Runnable restore = stall(disk, new AtomicBoolean());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> a = pool.submit(first::get);
            awaitTaken(firstTaken, "the first write");
            long revision = store.currentRevision();
            Future<Integer> b = pool.submit(second::get);
            awaitTaken(secondTaken, "the write behind it");
            assertEquals(revision, store.currentRevision(), "neither counted before the disk synced");
            disk.countDown();
            return List.of(a.get(10, TimeUnit.SECONDS), b.get(10, TimeUnit.SECONDS));
        } finally {
            disk.countDown();
            restore.run();
            pool.shutdownNow();
        }
    }

    private static String step(Store store, String namespace) {
        StoredObject c = store.latest(new ObjectKey("configmaps", namespace, "c"));
        return c == null ? null : c.tree().at("/data/step").asText();
    }

    @Test
    void aPatchBehindAPendingWriteOfTheSameObjectBuildsOnIt() throws Exception {
        String ns = newNamespace("behind");
        createOk(configMaps(ns), configMap("c", "\"data\":{\"step\":\"0\"}"));
        String path = configMaps(ns) + "/c";
        List<Integer> codes = oneBehindTheOther(
                () -> patch(path, "{\"data\":{\"step\":\"1\"}}"), s -> "1".equals(step(s, ns)),
                () -> patch(path, "{\"data\":{\"step\":\"2\"}}"), s -> "2".equals(step(s, ns)));
        assertEquals(List.of(200, 200), codes);
        given().get(path).then().statusCode(200).body("data.step", equalTo("2"));
        String metrics = Samples.scrape(management);
        assertTrue(metrics.matches("(?s).*\nwatchgate_store_durable_wait_seconds_count [1-9].*"), "the waits are timed");
        assertTrue(metrics.matches("(?s).*\nwatchgate_wal_sync_seconds_count [1-9].*"), "the syncs are timed");
        assertTrue(metrics.matches("(?s).*\nwatchgate_wal_append_seconds_count [1-9].*"), "the appends are timed");
        assertTrue(metrics.matches("(?s).*\nwatchgate_wal_append_seconds_sum [0-9.E-]*[1-9].*"),
                "and take time");
        assertTrue(metrics.matches("(?s).*\nwatchgate_wal_entries_total [1-9].*"), "the log's entries are counted");
    }

    @Test
    void aCreateInANamespaceWithAPendingWriteIsTakenWithoutWaitingForIt() throws Exception {
        String ns = newNamespace("guard");
        ObjectKey namespace = new ObjectKey("namespaces", "", ns);
        List<Integer> codes = oneBehindTheOther(
                () -> patch("/api/v1/namespaces/" + ns, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"),
                s -> s.latest(namespace).tree().at("/metadata/labels/a").asText().equals("b"),
                () -> given().contentType(ContentType.JSON).body(configMap("c", "")).post(configMaps(ns)).statusCode(),
                s -> step(s, ns) != null);
        assertEquals(List.of(200, 201), codes);
    }

    @Test
    void aCreateWhoseClientLeftBeforeTheAnswerLandsAndCountsAsClosed() throws Exception {
        String ns = newNamespace("left");
        String closed = "watchgate_writes_total{code=\"closed\",dry_run=\"\",resource=\"configmaps\","
                + "subresource=\"\",verb=\"create\"}";
        double before = closedWrites(closed);
        CountDownLatch disk = new CountDownLatch(1);
        Runnable restore = stall(disk, new AtomicBoolean());
        try {
            try (Socket client = new Socket(api.getHost(), api.getPort())) {
                byte[] body = configMap("gone", "").getBytes(StandardCharsets.UTF_8);
                OutputStream out = client.getOutputStream();
                out.write(("POST " + configMaps(ns) + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                        + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                out.write(body);
                out.flush();
                awaitTaken(s -> s.latest(new ObjectKey("configmaps", ns, "gone")) != null, "the create");
            } // the client leaves while the write waits for the disk
        } finally {
            disk.countDown();
            restore.run();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (closedWrites(closed) < before + 1 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(before + 1, closedWrites(closed));
        given().get(configMaps(ns) + "/gone").then().statusCode(200);
    }

    private double closedWrites(String series) {
        return Samples.valueOr0(Samples.scrape(management), series);
    }

    @Test
    @Order(Integer.MAX_VALUE) // breaks the log for good: the cut-back's sync fails too
    void aFailedSyncAnswers503WithRetryAfter() throws Exception {
        String ns = newNamespace("fail");
        createOk(configMaps(ns), configMap("c", ""));
        AtomicBoolean failing = new AtomicBoolean(true);
        Runnable restore = stall(new CountDownLatch(0), failing);
        try {
            given().contentType("application/merge-patch+json").body("{\"data\":{\"x\":\"y\"}}")
                    .patch(configMaps(ns) + "/c").then().statusCode(503).header("Retry-After", "5")
                    .body("reason", equalTo("ServiceUnavailable"));
            given().contentType(ContentType.JSON).body(configMap("d", "")).post(configMaps(ns))
                    .then().statusCode(503).header("Retry-After", "5");
        } finally {
            failing.set(false);
            restore.run();
        }
    }
}
