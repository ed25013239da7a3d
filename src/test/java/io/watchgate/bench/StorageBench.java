package io.watchgate.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.persistence.DurableSettings;
import io.watchgate.persistence.DurableStorage;
import io.watchgate.store.Commits;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The store's write throughput in memory and durable mode at 1, 16 and 64 concurrent writers, and recovery time
 * for a data directory of many objects: the storage layer alone, in process, without HTTP (see
 * docs/benchmarks.md). A main program on the test classpath, not a test.
 *
 * <pre>
 * ./mvnw -q test-compile exec:java -Dexec.mainClass=io.watchgate.bench.StorageBench -Dexec.classpathScope=test \
 *   -Dexec.args="--seconds=5 --objects=100000 --dir=/var/tmp"
 * </pre>
 */
public final class StorageBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PAYLOAD = "x".repeat(1024);


    public static void main(String[] args) throws Exception {
        int seconds = 5;
        int objects = 100_000;
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        for (String arg : args) {
            if (arg.startsWith("--seconds=")) {
                seconds = Integer.parseInt(arg.substring(10));
            } else if (arg.startsWith("--objects=")) {
                objects = Integer.parseInt(arg.substring(10));
            } else if (arg.startsWith("--dir=")) {
                base = Path.of(arg.substring(6));
            } else {
                System.err.println("usage: StorageBench [--seconds=5] [--objects=100000] [--dir=" + base + "]");
                System.exit(2);
            }
        }
        System.out.println("| writers | memory writes/s | durable writes/s | durable / memory | entries per sync |");
        System.out.println("|---|---|---|---|---|");
        for (int writers : new int[] {1, 16, 64}) {
            MemoryStore memory = newStore();
            double memoryRate = run(memory, writers, seconds);
            Path dir = Files.createTempDirectory(base, "storagebench");
            MemoryStore durable = newStore();
            double durableRate;
            double perSync;
            try (DurableStorage storage = DurableStorage.open(settings(dir), durable, JSON)) {
                durableRate = run(durable, writers, seconds);
                perSync = (double) storage.log().entries() / Math.max(1, storage.log().syncs());
            }
            delete(dir);
            System.out.printf("| %d | %.0f | %.0f | %.0f %% | %.1f |%n", writers, memoryRate, durableRate,
                    100 * durableRate / memoryRate, perSync);
        }
        recovery(base, objects);
    }

    private static MemoryStore newStore() {
        return new MemoryStore(JSON, 100_000, 128L << 20, Clock.systemUTC());
    }

    private static DurableSettings settings(Path dir) {
        return new DurableSettings(dir.toString(), false, 64L << 20, 1L << 40);
    }

    private static ObjectNode object(String name) {
        ObjectNode object = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        object.putObject("metadata").put("name", name).put("namespace", "bench");
        object.putObject("data").put("payload", PAYLOAD);
        return object;
    }

    /**
     * Writes as fast as {@code writers} threads can for about {@code seconds} (after a 1 s warm-up): each writer
     * creates its 500 objects, then updates them in turn, so that the store stays the same size.
     */
    private static double run(MemoryStore store, int writers, int seconds) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long warmUpEnd = System.nanoTime() + 1_000_000_000L;
        long end = warmUpEnd + seconds * 1_000_000_000L;
        AtomicLong counted = new AtomicLong();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (long i = 0;; i++) {
                    long now = System.nanoTime();
                    if (now > end) {
                        return;
                    }
                    String name = "w" + writer + "-" + (i % 500);
                    ObjectKey key = new ObjectKey("configmaps", "bench", name);
                    Commits.commit(store, i < 500 ? Mutation.create(key, object(name)) : Mutation.update(key, object(name), 0));
                    if (now > warmUpEnd) {
                        counted.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        return counted.get() / (double) seconds;
    }

    private static void recovery(Path base, int objects) throws Exception {
        Path dir = Files.createTempDirectory(base, "storagebench");
        MemoryStore store = newStore();
        try (DurableStorage storage = DurableStorage.open(settings(dir), store, JSON)) {
            List<Thread> threads = new ArrayList<>();
            int writers = 64;
            for (int w = 0; w < writers; w++) {
                int writer = w;
                Thread thread = new Thread(() -> {
                    for (int i = writer; i < objects; i += writers) {
                        String name = "o-" + i;
                        Commits.commit(store, Mutation.create(new ObjectKey("configmaps", "bench", name), object(name)));
                    }
                });
                thread.start();
                threads.add(thread);
            }
            for (Thread thread : threads) {
                thread.join();
            }
        }
        long logBytes = size(dir);
        long fromLog = timeRecovery(dir);
        try (DurableStorage storage = DurableStorage.open(settings(dir), newStore(), JSON)) {
            storage.snapshot();
        }
        long snapshotBytes = size(dir);
        long fromSnapshot = timeRecovery(dir);
        System.out.println();
        System.out.println("| recovery of " + objects + " objects of 1 KiB | ms | data directory |");
        System.out.println("|---|---|---|");
        System.out.printf("| from the log alone (%d entries) | %d | %d MiB |%n", objects, fromLog, logBytes >> 20);
        System.out.printf("| from a snapshot (objects and history) | %d | %d MiB |%n", fromSnapshot,
                snapshotBytes >> 20);
        delete(dir);
    }

    private static long timeRecovery(Path dir) throws Exception {
        System.gc();
        long started = System.nanoTime();
        MemoryStore recovered = newStore();
        try (DurableStorage storage = DurableStorage.open(settings(dir), recovered, JSON)) {
            long elapsed = (System.nanoTime() - started) / 1_000_000;
            if (recovered.currentRevision() == 0) {
                throw new IllegalStateException("nothing recovered");
            }
            return elapsed;
        }
    }

    private static long size(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.mapToLong(file -> file.toFile().length()).sum();
        }
    }

    private static void delete(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
