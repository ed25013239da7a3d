package io.watchgate.bench;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Makes the writes: {@code connections} lanes, each a keep-alive connection with one request in flight, take the
 * next write from a shared schedule (write i is due at start + i/rate, or at once when the rate is 0). Write i goes
 * to namespace i mod K. A lane owns its object names, so its create of an object always completes before its
 * updates of it. Each object's data carries the send time ({@code System.nanoTime() - epoch}, taken just before
 * the request is written), which the watchers of this same process subtract from their receive time.
 * Runs on one Vert.x context; results are read after {@link #run()} completes.
 */
final class Writer {

    static final String SENT_KEY = "sentNanos";

    private final Vertx vertx;
    private final LoadOptions options;
    private final List<String> namespaces;
    private final long epoch;
    private final HttpClient client;
    private final Context context;
    private final String pad;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final int writes;
    private final String names;

    // results, by namespace index: resourceVersion and type (WatchConnection.ADDED or MODIFIED) of each write
    final LongList[] rvs;
    final LongList[] types;
    final LatencyRecorder latency = new LatencyRecorder();
    int succeeded;
    int failed;
    int creates;
    int updates;
    String firstFailure;
    long firstSendNanos;
    long lastResponseNanos;
    /** how late, at most, a write was sent after its scheduled time (shows a writer that could not keep up) */
    long maxLagNanos;

    private long startNanos;
    private int next;
    private int lanesRunning;

    /**
     * @param writes how many writes to make
     * @param names  the prefix of the object names, so that a warm-up's objects and the measured ones differ
     */
    Writer(Vertx vertx, LoadOptions options, List<String> namespaces, long epoch, int writes, String names) {
        this.vertx = vertx;
        this.writes = writes;
        this.names = names;
        this.options = options;
        this.namespaces = namespaces;
        this.epoch = epoch;
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setPipelining(false)
                .setTcpNoDelay(true), new PoolOptions().setHttp1MaxSize(options.connections));
        this.context = vertx.getOrCreateContext();
        this.pad = "x".repeat(Math.max(0, options.size - 40));
        rvs = new LongList[namespaces.size()];
        types = new LongList[namespaces.size()];
        for (int i = 0; i < rvs.length; i++) {
            rvs[i] = new LongList();
            types[i] = new LongList();
        }
    }

    /** Makes every write; completes when each has been answered (or failed). */
    CompletableFuture<Void> run() {
        context.runOnContext(v -> {
            startNanos = System.nanoTime();
            int lanes = Math.min(options.connections, Math.max(1, writes));
            lanesRunning = lanes;
            for (int lane = 0; lane < lanes; lane++) {
                new Lane(lane).next();
            }
        });
        return done.thenCompose(v -> client.close().toCompletionStage().toCompletableFuture()
                .exceptionally(e -> null));
    }

    private final class Lane {
        final int id;
        final int[] perNamespace = new int[namespaces.size()];

        Lane(int id) {
            this.id = id;
        }

        void next() {
            if (next >= writes) {
                if (--lanesRunning == 0) {
                    done.complete(null);
                }
                return;
            }
            int i = next++;
            if (options.rate > 0) {
                long due = startNanos + (long) (i * 1e9 / options.rate);
                long delay = due - System.nanoTime();
                if (delay >= 1_000_000) {
                    vertx.setTimer(delay / 1_000_000, t -> send(i, due));
                    return;
                }
                send(i, due);
            } else {
                send(i, 0);
            }
        }

        void send(int i, long due) {
            int ns = i % namespaces.size();
            int count = perNamespace[ns]++;
            boolean create = options.objects == 0 || count < options.objects;
            String name = names + id + "-" + (options.objects == 0 ? count : count % options.objects);
            String base = "/api/v1/namespaces/" + namespaces.get(ns) + "/configmaps";
            boolean patch = !create && options.patch;
            RequestOptions request = new RequestOptions().setHost(options.host(id)).setPort(options.port(id))
                    .setMethod(create ? HttpMethod.POST : patch ? HttpMethod.PATCH : HttpMethod.PUT)
                    .setURI(create ? base : base + "/" + name)
                    .addHeader("Content-Type", patch ? "application/merge-patch+json" : "application/json");
            long[] sentAt = new long[1];
            client.request(options.authorized(request)).compose(req -> {
                long now = System.nanoTime();
                sentAt[0] = now;
                if (firstSendNanos == 0) {
                    firstSendNanos = now;
                }
                if (due > 0 && now - due > maxLagNanos) {
                    maxLagNanos = now - due;
                }
                // a patch changes the send time and sequence only: the object keeps its size, the request is small
                Buffer body = patch ? Buffer.buffer("{\"data\":{\"" + SENT_KEY + "\":\"" + (now - epoch)
                        + "\",\"seq\":\"" + i + "\"}}") : Buffer
                                .buffer("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                        + name + "\"},\"data\":{\"" + SENT_KEY + "\":\"" + (now - epoch) + "\",\"seq\":\"" + i
                        + "\",\"pad\":\"" + pad + "\"}}");
                return req.send(body).compose(resp -> resp.body().map(b -> {
                    int status = resp.statusCode();
                    if (status != (create ? 201 : 200)) {
                        throw new IllegalStateException("HTTP " + status + ": " + WatchConnection.truncate(b
                                .toString()));
                    }
                    // scanned rather than parsed: the tool must cost far less than the server it loads
                    long rv = WatchConnection.resourceVersion(b);
                    if (rv < 0) {
                        throw new IllegalStateException("no resourceVersion in " + WatchConnection.truncate(b
                                .toString()));
                    }
                    return rv;
                }));
            }).onComplete(result -> {
                long now = System.nanoTime();
                lastResponseNanos = now;
                if (result.succeeded()) {
                    succeeded++;
                    if (create) {
                        creates++;
                    } else {
                        updates++;
                    }
                    latency.record(now - sentAt[0]);
                    rvs[ns].add(result.result());
                    types[ns].add(create ? WatchConnection.ADDED : WatchConnection.MODIFIED);
                } else {
                    failed++;
                    if (firstFailure == null) {
                        firstFailure = (create ? "POST " : patch ? "PATCH " : "PUT ") + base + ": " + result.cause();
                    }
                }
                next();
            });
        }
    }
}
