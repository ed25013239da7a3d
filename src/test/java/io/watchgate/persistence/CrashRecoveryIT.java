package io.watchgate.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged application killed with SIGKILL in the middle of concurrent writes, again and again: every write
 * it acknowledged is there after the restart, with its resourceVersion; whatever else is there is whole; and
 * revisions go on upwards.
 */
class CrashRecoveryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    /** Enough crashes at random moments to show no loss; each round crosses segments and snapshots. */
    private static final int ROUNDS = 6;
    private static final int WRITERS = 4;
    /**
     * Acknowledged writes a round makes at least before its crash: some 450 bytes of log each, so that six rounds
     * write 160 KB or more, five 32 KiB segments and two 64 KiB snapshots' worth.
     */
    private static final int WRITES_PER_ROUND = 60;

    @TempDir
    Path dataDir;

    private final Path logs = Path.of("target", "crash-recovery-logs");

    /** An acknowledged create, and the resourceVersion it was acknowledged with. */
    record Acknowledged(String name, String resourceVersion) {
    }

    @Test
    void everyAcknowledgedWriteSurvivesKillNine() throws Exception {
        Files.createDirectories(logs);
        Random random = new Random(20261129);
        Map<String, Acknowledged> acknowledged = new ConcurrentHashMap<>();
        Set<String> storageFiles = new TreeSet<>(); // every file seen after a crash
        long highestAcknowledged = 0;
        for (int round = 0; round < ROUNDS; round++) {
            try (PackagedApp app = PackagedApp.start(dataDir, logs.resolve("round-" + round + ".log"),
                    "watchgate.storage.snapshot-after-bytes=65536", "watchgate.storage.segment-bytes=32768")) {
                verify(app, acknowledged, highestAcknowledged, round);
                AtomicBoolean killed = new AtomicBoolean();
                List<Thread> writers = new ArrayList<>();
                int thisRound = round;
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    Thread thread = new Thread(() -> write(app, thisRound, writer, killed, acknowledged));
                    thread.start();
                    writers.add(thread);
                }
                // a round's writes cross segments and snapshots however fast this machine is: so many first
                int before = acknowledged.size();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (acknowledged.size() < before + WRITES_PER_ROUND && System.nanoTime() < deadline) {
                    Thread.sleep(10); // polled until the deadline: the count of acknowledged writes decides
                }
                assertTrue(acknowledged.size() >= before + WRITES_PER_ROUND, "round " + round + " acknowledged "
                        + (acknowledged.size() - before) + " writes in 60 s");
                Thread.sleep(random.nextInt(300)); // then a random moment to crash at, amid the writes
                killed.set(true);
                app.kill();
                for (Thread writer : writers) {
                    writer.join(20_000);
                }
            }
            try (var files = Files.list(dataDir)) {
                files.map(file -> file.getFileName().toString()).forEach(storageFiles::add);
            }
            for (Acknowledged write : acknowledged.values()) {
                highestAcknowledged = Math.max(highestAcknowledged, Long.parseLong(write.resourceVersion()));
            }
        }
        try (PackagedApp app = PackagedApp.start(dataDir, logs.resolve("final.log"))) {
            verify(app, acknowledged, highestAcknowledged, ROUNDS);
        }
        assertTrue(acknowledged.size() > ROUNDS * WRITERS, "the rounds wrote something: " + acknowledged.size());
        // few rounds, but the crashes came among segments rolling over and snapshots being taken
        assertTrue(storageFiles.stream().filter(name -> name.startsWith("wal-")).count() >= 3,
                "segments rolled over: " + storageFiles);
        assertTrue(storageFiles.stream().filter(name -> name.endsWith(".snap")).count() >= 1,
                "snapshots were taken: " + storageFiles);
    }

    private static void write(PackagedApp app, int round, int writer, AtomicBoolean killed,
            Map<String, Acknowledged> acknowledged) {
        for (int i = 0; !killed.get(); i++) {
            String name = "r" + round + "-w" + writer + "-" + i;
            try {
                HttpResponse<String> response = app.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"" + name + "\"},"
                        + "\"data\":{\"name\":\"" + name + "\",\"payload\":\"" + "x".repeat(200) + "\"}}");
                if (response.statusCode() == 201) {
                    String version = JSON.readTree(response.body()).at("/metadata/resourceVersion").asText();
                    acknowledged.put(name, new Acknowledged(name, version));
                } else if (!killed.get()) {
                    throw new AssertionError("a create answered " + response.statusCode() + ": " + response.body());
                }
            } catch (java.io.IOException e) {
                return; // the server went away: this write was not acknowledged
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Every acknowledged write is there as acknowledged, nothing is half there, and revisions go on upward. */
    private static void verify(PackagedApp app, Map<String, Acknowledged> acknowledged, long highestAcknowledged,
            int round) throws Exception {
        HttpResponse<String> list = app.get(CONFIGMAPS);
        assertEquals(200, list.statusCode(), list.body());
        JsonNode items = JSON.readTree(list.body()).path("items");
        Map<String, JsonNode> present = new ConcurrentHashMap<>();
        for (JsonNode item : items) {
            String name = item.at("/metadata/name").asText();
            present.put(name, item);
            // written or not, an object is whole: all of what its create sent
            assertEquals(name, item.at("/data/name").asText(), "round " + round + ": " + item);
            assertEquals(200, item.at("/data/payload").asText().length(), "round " + round + ": " + name);
        }
        for (Acknowledged write : acknowledged.values()) {
            JsonNode item = present.get(write.name());
            assertTrue(item != null, "round " + round + ": the acknowledged " + write.name() + " (resourceVersion "
                    + write.resourceVersion() + ") is missing");
            assertEquals(write.resourceVersion(), item.at("/metadata/resourceVersion").asText(),
                    "round " + round + ": " + write.name());
        }
        long listed = Long.parseLong(JSON.readTree(list.body()).at("/metadata/resourceVersion").asText());
        assertTrue(listed >= highestAcknowledged, "round " + round + ": the revision went back from "
                + highestAcknowledged + " to " + listed);
        HttpResponse<String> probe = app.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"probe-" + round + "\"},"
                + "\"data\":{\"name\":\"probe-" + round + "\",\"payload\":\"" + "x".repeat(200) + "\"}}");
        assertEquals(201, probe.statusCode(), probe.body());
        long next = Long.parseLong(JSON.readTree(probe.body()).at("/metadata/resourceVersion").asText());
        assertTrue(next > listed, "round " + round + ": a new write got " + next + " after " + listed);
    }
}
