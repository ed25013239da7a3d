package io.watchgate.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Garbage collection of many dependents of one owner, and what another client sees meanwhile: N ConfigMaps owned by
 * one are made; then a probe client reads one object and writes another, one request after the other, for a few
 * seconds alone and then while the owner's deletion (Background) takes its N dependents. Reports how long the
 * collection took and the probe's latencies (p50, p99, max) in both phases. Against a running server (see
 * docs/benchmarks.md); a main program, not a test.
 *
 * <pre>
 * ./mvnw -q test-compile exec:java -Dexec.mainClass=io.watchgate.bench.CollectionBench -Dexec.classpathScope=test \
 *   -Dexec.args="--dependents=10000"
 * </pre>
 */
public final class CollectionBench {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final String url;
    private final String collection;

    private CollectionBench(String url, String namespace) {
        this.url = url;
        this.collection = "/api/v1/namespaces/" + namespace + "/configmaps";
    }

    public static void main(String[] args) throws Exception {
        String url = "http://localhost:8080";
        int dependents = 10_000;
        int quietSeconds = 5;
        for (String arg : args) {
            if (arg.startsWith("--url=")) {
                url = arg.substring(6);
            } else if (arg.startsWith("--dependents=")) {
                dependents = Integer.parseInt(arg.substring(13));
            } else if (arg.startsWith("--quiet-seconds=")) {
                quietSeconds = Integer.parseInt(arg.substring(16));
            } else {
                System.err.println("usage: CollectionBench [--url=" + url + "] [--dependents=10000] [--quiet-seconds=5]");
                System.exit(2);
            }
        }
        String namespace = "gcb-" + System.currentTimeMillis() % 100_000;
        CollectionBench bench = new CollectionBench(url, namespace);
        bench.send("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}", 201);
        String owner = bench.uidOf(bench.send("POST", bench.collection, "{\"metadata\":{\"name\":\"owner\"}}", 201));
        bench.send("POST", bench.collection, "{\"metadata\":{\"name\":\"probe-read\"}}", 201);
        bench.send("POST", bench.collection, "{\"metadata\":{\"name\":\"probe-write\"}}", 201);
        long started = System.nanoTime();
        bench.fill(dependents, owner, 64);
        System.out.printf("created %d dependents in %.1f s%n", dependents, (System.nanoTime() - started) / 1e9);

        Probe quiet = bench.probe();
        Thread.sleep(quietSeconds * 1000L);
        quiet.stop();
        System.out.println("probe alone:            " + quiet.summary());

        Probe during = bench.probe();
        long deleted = System.nanoTime();
        bench.send("DELETE", bench.collection + "/owner", null, 200);
        int left;
        do {
            Thread.sleep(100);
            left = bench.count();
        } while (left > 2); // the probe's two objects stay
        double seconds = (System.nanoTime() - deleted) / 1e9;
        during.stop();
        System.out.printf("collected %d dependents in %.1f s (%.0f/s)%n", dependents, seconds, dependents / seconds);
        System.out.println("probe during collection: " + during.summary());
        bench.send("DELETE", "/api/v1/namespaces/" + namespace, null, 200);
    }

    private void fill(int dependents, String owner, int inFlight) throws Exception {
        Semaphore slots = new Semaphore(inFlight);
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (int i = 0; i < dependents; i++) {
            slots.acquire();
            String body = "{\"metadata\":{\"name\":\"d-" + i + "\",\"ownerReferences\":[{\"apiVersion\":\"v1\","
                    + "\"kind\":\"ConfigMap\",\"name\":\"owner\",\"uid\":\"" + owner + "\"}]},"
                    + "\"data\":{\"k\":\"v\"}}";
            pending.add(CLIENT.sendAsync(request("POST", collection, body), HttpResponse.BodyHandlers.discarding())
                    .whenComplete((response, failure) -> slots.release()));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
    }

    /** One client reading an object and writing another, a request at a time, until stopped. */
    private Probe probe() {
        Probe probe = new Probe();
        probe.thread = new Thread(() -> {
            for (int i = 0; !probe.stop.get(); i++) {
                try {
                    long t0 = System.nanoTime();
                    if (i % 2 == 0) {
                        send("GET", collection + "/probe-read", null, 200);
                    } else {
                        send("PATCH", collection + "/probe-write", "{\"data\":{\"i\":\"" + i + "\"}}", 200);
                    }
                    probe.add(System.nanoTime() - t0);
                    Thread.sleep(5);
                } catch (Exception e) {
                    probe.failures++;
                }
            }
        });
        probe.thread.start();
        return probe;
    }

    private static final class Probe {
        final AtomicBoolean stop = new AtomicBoolean();
        Thread thread;
        long[] nanos = new long[1024];
        int count;
        int failures;

        void add(long value) {
            if (count == nanos.length) {
                nanos = Arrays.copyOf(nanos, count * 2);
            }
            nanos[count++] = value;
        }

        void stop() throws InterruptedException {
            stop.set(true);
            thread.join();
        }

        String summary() {
            long[] sorted = Arrays.copyOf(nanos, count);
            Arrays.sort(sorted);
            return String.format("%d requests, p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d failed", count,
                    at(sorted, 0.50), at(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
                    failures);
        }

        private static double at(long[] sorted, double quantile) {
            return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, quantile * sorted.length)] / 1e6;
        }
    }

    /** How many objects are left, from a list of one (its remainingItemCount): no full list competes with the probe. */
    private int count() throws Exception {
        String list = send("GET", collection + "?limit=1", null, 200);
        int remaining = 0;
        int at = list.indexOf("\"remainingItemCount\":");
        if (at >= 0) {
            int from = at + "\"remainingItemCount\":".length();
            int to = from;
            while (to < list.length() && Character.isDigit(list.charAt(to))) {
                to++;
            }
            remaining = Integer.parseInt(list.substring(from, to));
        }
        return remaining + (list.contains("\"creationTimestamp\"") ? 1 : 0);
    }

    private String uidOf(String json) {
        int at = json.indexOf("\"uid\":\"") + 7;
        return json.substring(at, json.indexOf('"', at));
    }

    private HttpRequest request(String method, String path, String json) {
        String type = method.equals("PATCH") ? "application/merge-patch+json" : "application/json";
        return HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", type)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json)).build();
    }

    private String send(String method, String path, String json, int expected) throws Exception {
        HttpResponse<String> response = CLIENT.send(request(method, path, json), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }
}
