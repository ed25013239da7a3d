package io.watchgate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.parsetools.RecordParser;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Per-object watches, as a kubelet watches its node and its pods' secrets: N objects in one namespace, each watched
 * by one client through {@code fieldSelector=metadata.name=…}, then writes that each update one of them (round
 * robin) at a fixed rate. It reports the server's CPU per write (the write and its fan-out: what grows with N when
 * every event is offered to every watcher of the namespace) and the time from sending a write to its event
 * arriving at the one watcher that selects it; it checks that each write reached its watcher exactly once, in
 * order, and no other. A main program on the test classpath, not a test (docs/benchmarks.md).
 *
 * <pre>
 * ./mvnw -q test-compile exec:java -Dexec.mainClass=io.watchgate.bench.ObjectWatchLoad -Dexec.classpathScope=test \
 *   -Dexec.args="--objects=1000 --writes=5000 --warmup=1000 --rate=500 --server-pid=$SP"
 * </pre>
 *
 * Options: {@code --port} (8080), {@code --per-connection} (1: one HTTP/1.1 connection per watch; more: HTTP/2
 * cleartext with that many watches per connection, as kubelets multiplex theirs).
 */
public final class ObjectWatchLoad {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final HttpClient writes;
    private final int port;
    private final String namespace = "objwatch-" + System.currentTimeMillis() % 1_000_000;
    private long[] sentNanos;
    private boolean[] received;
    private final LatencyRecorder latency = new LatencyRecorder();
    private final AtomicInteger events = new AtomicInteger();
    private final AtomicInteger misdelivered = new AtomicInteger();
    private final AtomicInteger outOfOrder = new AtomicInteger();
    private final AtomicInteger repeated = new AtomicInteger();

    private ObjectWatchLoad(Vertx vertx, int port, int objects, int perConnection) {
        this.port = port;
        HttpClientOptions options = new HttpClientOptions().setKeepAlive(true).setMaxInitialLineLength(65536);
        PoolOptions pool = new PoolOptions().setHttp1MaxSize(objects + 10).setMaxWaitQueueSize(-1);
        if (perConnection > 1) {
            // a watch not read must not hold the whole connection's default 64 KiB window
            options.setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)
                    .setHttp2ConnectionWindowSize(16 * 1024 * 1024).setHttp2MultiplexingLimit(perConnection);
            pool.setHttp2MaxSize((objects + perConnection - 1) / perConnection);
        }
        this.client = vertx.createHttpClient(options, pool);
        this.writes = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(16).setMaxWaitQueueSize(-1));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            String[] pair = arg.replaceFirst("^--", "").split("=", 2);
            options.put(pair[0], pair.length > 1 ? pair[1] : "true");
        }
        int objects = Integer.parseInt(options.getOrDefault("objects", "1000"));
        int measured = Integer.parseInt(options.getOrDefault("writes", "5000"));
        int warmup = Integer.parseInt(options.getOrDefault("warmup", "1000"));
        int rate = Integer.parseInt(options.getOrDefault("rate", "500"));
        int port = Integer.parseInt(options.getOrDefault("port", "8080"));
        int perConnection = Integer.parseInt(options.getOrDefault("per-connection", "1"));
        long serverPid = Long.parseLong(options.getOrDefault("server-pid", "-1"));
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        try {
            new ObjectWatchLoad(vertx, port, objects, perConnection).run(objects, warmup, measured, rate, serverPid);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private void run(int objects, int warmup, int measured, int rate, long serverPid) throws Exception {
        sentNanos = new long[warmup + measured];
        received = new boolean[warmup + measured];
        send(HttpMethod.POST, "/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + namespace + "\"}}")
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        long created = System.nanoTime();
        Semaphore inFlight = new Semaphore(64);
        for (int i = 0; i < objects; i++) {
            inFlight.acquire();
            send(HttpMethod.POST, "/api/v1/namespaces/" + namespace + "/configmaps", "{\"metadata\":{\"name\":\"o-"
                    + i + "\"},\"data\":{\"seq\":\"-1\"}}").onComplete(done -> inFlight.release());
        }
        inFlight.acquire(64);
        inFlight.release(64);
        String revision = JSON.readTree(send(HttpMethod.GET, "/api/v1/namespaces/" + namespace
                + "/configmaps?limit=1", null).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS)
                .toString()).path("metadata").path("resourceVersion").asText();
        System.out.printf("created %d objects in %.1f s%n", objects, (System.nanoTime() - created) / 1e9);

        long opened = System.nanoTime();
        CountDownLatch established = new CountDownLatch(objects);
        AtomicInteger refused = new AtomicInteger();
        for (int i = 0; i < objects; i++) {
            watch(i, objects, revision, established, refused);
        }
        if (!established.await(300, TimeUnit.SECONDS) || refused.get() > 0) {
            throw new IllegalStateException("watches not established: " + established.getCount() + " waiting, "
                    + refused.get() + " refused");
        }
        System.out.printf("opened %d watches in %.1f s%n", objects, (System.nanoTime() - opened) / 1e9);

        write(0, warmup, objects, rate);
        awaitEvents(warmup);
        latency.clear();
        long cpuBefore = ProcessStats.cpuNanos(serverPid);
        long ownBefore = ProcessStats.ownCpuNanos();
        long start = System.nanoTime();
        write(warmup, warmup + measured, objects, rate);
        boolean all = awaitEvents(warmup + measured);
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpu = ProcessStats.cpuNanos(serverPid) - cpuBefore;
        long own = ProcessStats.ownCpuNanos() - ownBefore;
        int lost = 0;
        for (boolean got : received) {
            lost += got ? 0 : 1;
        }
        System.out.printf("watchers=%d writes=%d rate=%d/s in %.1f s: %s%n", objects, measured, rate, seconds,
                all ? "every event arrived" : "NOT every event arrived");
        System.out.printf("  write->event at its watcher: p50 %s ms, p99 %s ms, max %s ms (%d samples)%n",
                LatencyRecorder.ms(latency.percentile(0.5)), LatencyRecorder.ms(latency.percentile(0.99)),
                LatencyRecorder.ms(latency.max()), latency.count());
        if (serverPid > 0) {
            System.out.printf("  server CPU %.2f s: %.1f us per write; load tool CPU %.2f s; load %s%n", cpu / 1e9,
                    cpu / 1e3 / measured, own / 1e9, ProcessStats.loadAverage());
        }
        System.out.printf("  lost %d, repeated %d, out of order %d, to the wrong watcher %d%n", lost, repeated.get(),
                outOfOrder.get(), misdelivered.get());
    }

    /** Watch {@code i} selects object o-i from {@code revision} on; its events are checked and timed. */
    private void watch(int i, int objects, String revision, CountDownLatch established, AtomicInteger refused) {
        String name = "o-" + i;
        long[] last = {-1};
        RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET).setHost("localhost").setPort(port)
                .setURI("/api/v1/namespaces/" + namespace + "/configmaps?watch=true&timeoutSeconds=3600"
                        + "&fieldSelector=metadata.name%3D" + name + "&resourceVersion=" + revision);
        client.request(request).compose(req -> req.send()).onComplete(answer -> {
            if (answer.failed() || answer.result().statusCode() != 200) {
                refused.incrementAndGet();
                established.countDown();
                return;
            }
            HttpClientResponse response = answer.result();
            RecordParser lines = RecordParser.newDelimited("\n", line -> event(line, name, objects, last));
            response.handler(lines);
            established.countDown();
        });
    }

    private void event(Buffer line, String name, int objects, long[] last) {
        long now = System.nanoTime();
        try {
            JsonNode object = JSON.readTree(line.getBytes()).path("object");
            int seq = Integer.parseInt(object.path("data").path("seq").asText("-1"));
            if (!object.path("metadata").path("name").asText().equals(name) || seq < 0
                    || !name.equals("o-" + seq % objects)) {
                misdelivered.incrementAndGet();
                return;
            }
            synchronized (this) {
                if (received[seq]) {
                    repeated.incrementAndGet();
                } else {
                    received[seq] = true;
                    latency.record(now - sentNanos[seq]);
                }
                if (seq <= last[0]) {
                    outOfOrder.incrementAndGet();
                }
                last[0] = seq;
            }
            events.incrementAndGet();
        } catch (Exception e) {
            misdelivered.incrementAndGet();
        }
    }

    /** Writes seq {@code from} until {@code to}, each a merge patch of object o-(seq mod objects), at {@code rate}. */
    private void write(int from, int to, int objects, int rate) throws InterruptedException {
        Semaphore inFlight = new Semaphore(64);
        long start = System.nanoTime();
        for (int seq = from; seq < to; seq++) {
            long due = start + (long) ((seq - from) * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            inFlight.acquire();
            synchronized (this) {
                sentNanos[seq] = System.nanoTime();
            }
            send(HttpMethod.PATCH, "/api/v1/namespaces/" + namespace + "/configmaps/o-" + seq % objects,
                    "{\"data\":{\"seq\":\"" + seq + "\"}}").onComplete(done -> inFlight.release());
        }
        inFlight.acquire(64);
    }

    private boolean awaitEvents(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (events.get() + misdelivered.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(10); // polling the count, with a deadline: a benchmark's wait, not a test's
        }
        return events.get() >= expected;
    }

    private Future<Buffer> send(HttpMethod method, String uri, String body) {
        RequestOptions request = new RequestOptions().setMethod(method).setHost("localhost").setPort(port)
                .setURI(uri).putHeader("Content-Type", method == HttpMethod.PATCH ? "application/merge-patch+json"
                        : "application/json");
        return writes.request(request).compose(req -> body == null ? req.send() : req.send(body))
                .compose(response -> response.body().map(bytes -> {
                    if (response.statusCode() >= 300) {
                        throw new IllegalStateException(method + " " + uri + ": " + response.statusCode() + " "
                                + bytes);
                    }
                    return bytes;
                }));
    }
}
