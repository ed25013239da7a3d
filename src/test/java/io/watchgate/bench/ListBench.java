package io.watchgate.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lists over HTTP: a full list and a paginated list of N objects of 1 KiB, and how much a list running during
 * writes slows the writes. Against a running server (see docs/benchmarks.md); a main program, not a test.
 *
 * <pre>
 * ./mvnw -q test-compile exec:java -Dexec.mainClass=io.watchgate.bench.ListBench -Dexec.classpathScope=test \
 *   -Dexec.args="--objects=100000"
 * </pre>
 */
public final class ListBench {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final String PAYLOAD = "x".repeat(1024);

    private final String url;
    private final String collection;

    private ListBench(String url, String namespace) {
        this.url = url;
        this.collection = "/api/v1/namespaces/" + namespace + "/configmaps";
    }

    public static void main(String[] args) throws Exception {
        String url = "http://localhost:8080";
        int objects = 10_000;
        int page = 500;
        int seconds = 10;
        boolean keep = false;
        for (String arg : args) {
            if (arg.startsWith("--url=")) {
                url = arg.substring(6);
            } else if (arg.startsWith("--objects=")) {
                objects = Integer.parseInt(arg.substring(10));
            } else if (arg.startsWith("--page=")) {
                page = Integer.parseInt(arg.substring(7));
            } else if (arg.equals("--keep")) {
                keep = true;
            } else if (arg.startsWith("--seconds=")) {
                seconds = Integer.parseInt(arg.substring(10));
            } else {
                System.err.println("usage: ListBench [--url=" + url + "] [--objects=10000] [--page=500] [--seconds=10] [--keep]");
                System.exit(2);
            }
        }
        String namespace = "lb-" + System.currentTimeMillis() % 100_000;
        ListBench bench = new ListBench(url, namespace);
        bench.send("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}", 201);
        long started = System.nanoTime();
        bench.fill(objects, 64);
        System.out.printf("created %d objects of 1 KiB in %.1f s%n", objects, (System.nanoTime() - started) / 1e9);

        for (int run = 1; run <= 3; run++) {
            long t0 = System.nanoTime();
            HttpResponse<byte[]> list = bench.get(bench.collection);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("full list %d: %d ms, %d items, %.1f MiB%n", run, ms, countItems(list.body()),
                    list.body().length / 1048576.0);
        }
        long t0 = System.nanoTime();
        int pages = 0;
        int items = 0;
        String token = null;
        do {
            HttpResponse<byte[]> list = bench.get(bench.collection + "?limit=" + page
                    + (token == null ? "" : "&continue=" + URLEncoder.encode(token, StandardCharsets.UTF_8)));
            items += countItems(list.body());
            token = continueToken(list.body());
            pages++;
        } while (token != null);
        System.out.printf("paginated list (limit=%d): %d ms, %d pages, %d items%n", page,
                (System.nanoTime() - t0) / 1_000_000, pages, items);

        // alternated, so that warming up and the machine's other load fall on both sides
        for (int round = 1; round <= 2; round++) {
            double quiet = bench.writeRate(seconds, false);
            double listing = bench.writeRate(seconds, true);
            System.out.printf("writes/s at 16 writers, round %d: %.0f alone, %.0f with full lists running "
                    + "throughout (%+.0f %%)%n", round, quiet, listing, 100 * (listing - quiet) / quiet);
        }
        if (keep) {
            System.out.println("kept namespace " + namespace);
        } else {
            bench.send("DELETE", "/api/v1/namespaces/" + namespace, null, 200);
        }
    }

    private void fill(int objects, int inFlight) throws Exception {
        Semaphore slots = new Semaphore(inFlight);
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (int i = 0; i < objects; i++) {
            slots.acquire();
            pending.add(CLIENT.sendAsync(post(collection, body("o-" + i)), HttpResponse.BodyHandlers.discarding())
                    .whenComplete((response, failure) -> slots.release()));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
    }

    /** Updates as fast as 16 writers can for {@code seconds}, with or without a client listing throughout. */
    private double writeRate(int seconds, boolean withList) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong writes = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 16; w++) {
            int writer = w;
            threads.add(started(() -> {
                for (int i = 0; !stop.get(); i++) {
                    String name = "w" + writer + "-" + (i % 50);
                    try {
                        int status = CLIENT.send(i < 50 ? post(collection, body(name))
                                : HttpRequest.newBuilder(URI.create(url + collection + "/" + name))
                                        .header("Content-Type", "application/json")
                                        .PUT(HttpRequest.BodyPublishers.ofString(body(name))).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode();
                        if (status == 200 || status == 201) {
                            writes.incrementAndGet();
                        }
                    } catch (Exception e) {
                        return;
                    }
                }
            }));
        }
        if (withList) {
            threads.add(started(() -> {
                while (!stop.get()) {
                    try {
                        get(collection);
                    } catch (Exception e) {
                        return;
                    }
                }
            }));
        }
        Thread.sleep(1000); // warm-up, not counted
        long from = writes.get();
        Thread.sleep(seconds * 1000L);
        long counted = writes.get() - from;
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        return counted / (double) seconds;
    }

    private static Thread started(Runnable body) {
        Thread thread = new Thread(body);
        thread.start();
        return thread;
    }

    private HttpRequest post(String path, String json) {
        return HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    private static String body(String name) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"payload\":\"" + PAYLOAD + "\"}}";
    }

    private HttpResponse<byte[]> get(String path) throws Exception {
        HttpResponse<byte[]> response = CLIENT.send(HttpRequest.newBuilder(URI.create(url + path)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + ": " + response.statusCode());
        }
        return response;
    }

    private void send(String method, String path, String json, int expected) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
                .header("Content-Type", "application/json");
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json));
        int status = CLIENT.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status != expected) {
            throw new IllegalStateException(method + " " + path + ": " + status);
        }
    }

    /** The number of entries of the top-level {@code items}, streamed. */
    private static int countItems(byte[] list) throws Exception {
        try (JsonParser parser = new JsonFactory().createParser(list)) {
            parser.nextToken();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                if (field.equals("items")) {
                    int count = 0;
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        parser.skipChildren();
                        count++;
                    }
                    return count;
                }
                parser.skipChildren();
            }
        }
        return 0;
    }

    private static String continueToken(byte[] list) throws Exception {
        try (JsonParser parser = new JsonFactory().createParser(list)) {
            parser.nextToken();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                if (field.equals("metadata")) {
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String name = parser.currentName();
                        parser.nextToken();
                        if (name.equals("continue")) {
                            String token = parser.getText();
                            return token.isEmpty() ? null : token;
                        }
                        parser.skipChildren();
                    }
                    return null;
                }
                parser.skipChildren();
            }
        }
        return null;
    }
}
