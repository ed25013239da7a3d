package io.watchgate.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A watch load tool (a main program on the test classpath, not a test): creates K namespaces, opens N watches of
 * ConfigMaps from the current resourceVersion, makes M writes at a rate, and reports whether every watcher got
 * exactly its namespace's writes in order, the delivery latency (write sent to event received, both clocks this
 * process's {@code System.nanoTime()}), throughput and the CPU time of the tool and, given its pid, of the server.
 *
 * <pre>
 * ./mvnw -q test-compile exec:java -Dexec.mainClass=io.watchgate.bench.WatchLoad -Dexec.classpathScope=test \
 *     -Dexec.args="--watchers=100 --namespaces=10 --writes=2000 --rate=200 --server-pid=$(pgrep -f quarkus-run.jar)"
 * </pre>
 *
 * See docs/benchmarks.md. Exits 0 when every watch was established and delivered cleanly, 1 when not, 2 when the
 * run could not be made (bad options, no server).
 */
public final class WatchLoad {

    private WatchLoad() {
    }

    public static void main(String[] args) throws Exception {
        LoadOptions options;
        try {
            options = LoadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        int code;
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(options.eventLoops)
                .setBlockedThreadCheckInterval(10_000));
        try {
            code = new Run(vertx, options).execute();
        } catch (Exception e) {
            Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null
                    ? e.getCause() : e;
            System.out.println("WatchLoad failed: " + cause);
            code = 2;
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        System.out.flush();
        System.exit(code);
    }

    private static final class Run {
        private final Vertx vertx;
        private final LoadOptions o;
        private final long epoch = System.nanoTime();
        private final HttpClient admin;

        Run(Vertx vertx, LoadOptions options) {
            this.vertx = vertx;
            this.o = options;
            this.admin = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                    new PoolOptions().setHttp1MaxSize(4));
        }

        int execute() throws Exception {
            String date = OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
            System.out.println("WatchLoad " + date);
            System.out.println("options: " + o.describe());
            System.out.println("machine: " + Runtime.getRuntime().availableProcessors() + " cores; load average "
                    + ProcessStats.loadAverage());

            // 1. namespaces
            String run = Long.toString(System.currentTimeMillis() % 2_000_000_000L, 36);
            List<String> namespaces = new ArrayList<>();
            for (int k = 0; k < o.namespaces; k++) {
                String name = o.prefix + "-" + run + "-" + k;
                namespaces.add(name);
                JsonObject ns = new JsonObject().put("apiVersion", "v1").put("kind", "Namespace")
                        .put("metadata", new JsonObject().put("name", name));
                int status = call(HttpMethod.POST, "/api/v1/namespaces", ns.toBuffer()).statusCode;
                if (status != 201 && status != 409) {
                    throw new IllegalStateException("creating namespace " + name + " answered " + status);
                }
            }
            String listPath = o.allNamespaces ? "/api/v1/configmaps?limit=1"
                    : "/api/v1/namespaces/" + namespaces.get(0) + "/configmaps?limit=1";
            Reply list = call(HttpMethod.GET, listPath, null);
            if (list.statusCode != 200) {
                throw new IllegalStateException("listing " + listPath + " answered " + list.statusCode + ": "
                        + WatchConnection.truncate(list.body.toString()));
            }
            long rv0 = Long.parseLong(new JsonObject(list.body).getJsonObject("metadata").getString("resourceVersion"));
            System.out.printf("setup: %d namespaces %s-%s-*, watching from resourceVersion %d%n", o.namespaces,
                    o.prefix, run, rv0);

            // 2. watches
            LongAdder delivered = new LongAdder();
            HttpClientOptions watchOptions = new HttpClientOptions().setKeepAlive(true).setPipelining(false)
                    .setTcpNoDelay(true).setMaxWebSockets(o.watchers * 2 + 8)
                    // one message per event, of any size; a stalled watcher's close does not wait for its reading
                    .setMaxWebSocketFrameSize(Integer.MAX_VALUE).setMaxWebSocketMessageSize(Integer.MAX_VALUE)
                    .setWebSocketClosingTimeout(0);
            PoolOptions watchPool = new PoolOptions().setHttp1MaxSize(o.watchers * 2 + 8);
            if (o.http2 > 0) {
                watchOptions.setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)
                        // a paused or stalled watch must not hold the whole connection's default 64 KiB window
                        .setHttp2ConnectionWindowSize(16 * 1024 * 1024)
                        .setHttp2MultiplexingLimit(o.http2);
                watchPool.setHttp2MaxSize((o.watchers + o.http2 - 1) / o.http2);
            }
            HttpClient watchClient = vertx.createHttpClient(watchOptions, watchPool);
            List<WatchConnection> streams = new ArrayList<>();
            long openStart = System.nanoTime();
            for (int w = 0; w < o.watchers; w++) {
                Context context = vertx.getOrCreateContext(); // round robin over the event loops
                String ns = o.allNamespaces || o.watchesPerStream > 0 ? null : namespaces.get(w % o.namespaces);
                List<String> ofStream = null;
                if (o.watchesPerStream > 0) {
                    ofStream = new ArrayList<>();
                    for (int j = 0; j < o.watchesPerStream; j++) {
                        ofStream.add(namespaces.get((w + j) % o.namespaces));
                    }
                }
                WatchConnection stream = new WatchConnection(w, ns, ofStream, watchClient, context, o, epoch,
                        delivered);
                streams.add(stream);
                stream.start(rv0);
            }
            try {
                CompletableFuture.allOf(streams.stream().map(s -> s.established).toArray(CompletableFuture[]::new))
                        .get(o.establishTimeoutSeconds, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                System.out.println("watches: not all answered within " + o.establishTimeoutSeconds + " s");
            }
            long openNanos = System.nanoTime() - openStart;
            List<WatchConnection> live = new ArrayList<>();
            String firstOpenFailure = null;
            for (WatchConnection s : streams) {
                if (s.established.isDone() && s.established.getNow(-1) == 200) {
                    live.add(s);
                } else if (firstOpenFailure == null) {
                    firstOpenFailure = "watch " + s.id + ": " + (s.failure == null ? "no answer" : s.failure);
                }
            }
            System.out.printf("watches: %d of %d established (HTTP 200) in %s ms%s%n", live.size(), o.watchers,
                    LatencyRecorder.ms(openNanos), firstOpenFailure == null ? "" : "; first failure: " + firstOpenFailure);

            // 3. warm-up: writes whose events are awaited, then forgotten
            if (o.warmup > 0) {
                Writer warm = new Writer(vertx, o, namespaces, epoch, o.warmup, "w");
                warm.run().get();
                long warmExpected = 0;
                for (WatchConnection s : live) {
                    for (int k : namespacesOf(s)) {
                        warmExpected += o.allNamespaces ? warm.succeeded : warm.rvs[k].size();
                    }
                }
                boolean warmDrained = awaitDeliveries(delivered, warmExpected);
                CompletableFuture.allOf(live.stream().map(WatchConnection::forgetEvents)
                        .toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
                delivered.reset();
                System.out.printf("warm-up: %d writes (%d failed), %d of %d events delivered%s, then forgotten%n",
                        warm.succeeded, warm.failed, warmDrained ? warmExpected : -1, warmExpected,
                        warmDrained ? "" : " (gave up waiting)");
            }

            // 4. writes, while the watchers record
            long serverCpu0 = o.serverPid > 0 ? ProcessStats.cpuNanos(o.serverPid) : -1;
            long serverThreads0 = o.serverPid > 0 ? ProcessStats.threads(o.serverPid) : -1;
            ProcessStats.RssSampler rss = o.serverPid > 0 ? new ProcessStats.RssSampler(o.serverPid, 200) : null;
            long ownCpu0 = ProcessStats.ownCpuNanos();
            long wall0 = System.nanoTime();
            Writer writer = new Writer(vertx, o, namespaces, epoch, o.writes, "l");
            writer.run().get();

            // expected deliveries: each live watcher, every successful write of its namespace
            long[][][] expected = new long[o.namespaces][][];
            for (int k = 0; k < o.namespaces; k++) {
                expected[k] = DeliveryCheck.sortedWrites(writer.rvs[k], writer.types[k]);
            }
            LongList allRvs = new LongList();
            LongList allTypes = new LongList();
            for (int k = 0; k < o.namespaces; k++) {
                allRvs.addAll(writer.rvs[k]);
                allTypes.addAll(writer.types[k]);
            }
            long[][] expectedAll = DeliveryCheck.sortedWrites(allRvs, allTypes);
            long expectedTotal = 0;
            for (WatchConnection s : live) {
                if (s.stalls()) {
                    continue;
                }
                for (int k : namespacesOf(s)) {
                    expectedTotal += o.allNamespaces ? expectedAll[0].length : expected[k][0].length;
                }
            }

            // 5. wait for the events to arrive: until all expected came, or none came for drain-timeout
            boolean drained = awaitDeliveries(delivered, expectedTotal);
            long wall1 = System.nanoTime();
            long ownCpu1 = ProcessStats.ownCpuNanos();
            long serverCpu1 = o.serverPid > 0 ? ProcessStats.cpuNanos(o.serverPid) : -1;
            Thread.sleep(o.graceMillis); // extra (duplicate) events would show up here
            if (rss != null) {
                rss.close();
            }
            long serverRss = o.serverPid > 0 ? ProcessStats.statusKib(o.serverPid, "VmRSS") : -1;
            long serverHwm = o.serverPid > 0 ? ProcessStats.statusKib(o.serverPid, "VmHWM") : -1;
            long serverThreads1 = o.serverPid > 0 ? ProcessStats.threads(o.serverPid) : -1;

            // 6. stop the watches, then read what they recorded
            CompletableFuture.allOf(streams.stream().map(WatchConnection::stop).toArray(CompletableFuture[]::new))
                    .get(30, TimeUnit.SECONDS);
            watchClient.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

            LatencyRecorder latency = new LatencyRecorder();
            long received = 0;
            long lost = 0;
            long duplicated = 0;
            long outOfOrder = 0;
            long unexpected = 0;
            long wrongType = 0;
            long maxLost = 0;
            int unclean = 0;
            long bookmarks = 0;
            long errors = 0;
            long malformed = 0;
            long noTimestamp = 0;
            long wrongNamespace = 0;
            long sseIdMismatch = 0;
            long endedByServer = 0;
            long rewatches = 0;
            long rewatchFailures = 0;
            long lastReceive = 0;
            List<String> details = new ArrayList<>();
            int stalled = 0;
            long stalledEnded = 0;
            for (WatchConnection s : live) {
                if (s.stalls()) {
                    stalled++;
                    stalledEnded += s.endedByServer;
                    continue;
                }
                int[] watched = namespacesOf(s);
                long[][] exp = null;
                DeliveryCheck c = null;
                boolean clean = true;
                for (int j = 0; j < watched.length; j++) {
                    exp = o.allNamespaces ? expectedAll : expected[watched[j]];
                    c = s.streamNamespaces == null ? DeliveryCheck.of(s.rvs, s.types, exp[0], exp[1])
                            : DeliveryCheck.of(s.streamRvs[j], s.streamTypes[j], exp[0], exp[1]);
                    received += c.received();
                    lost += c.lost();
                    maxLost = Math.max(maxLost, c.lost());
                    duplicated += c.duplicated();
                    outOfOrder += c.outOfOrder();
                    unexpected += c.unexpected();
                    wrongType += c.wrongType();
                    clean &= c.clean();
                }
                latency.addAll(s.latencies);
                bookmarks += s.bookmarks;
                errors += s.errors;
                malformed += s.malformed;
                noTimestamp += s.withoutTimestamp;
                wrongNamespace += s.wrongNamespace;
                sseIdMismatch += s.sseIdMismatch;
                endedByServer += s.endedByServer;
                rewatches += s.rewatches;
                rewatchFailures += s.rewatchFailures;
                lastReceive = Math.max(lastReceive, s.lastReceiveNanos);
                // a stream the server ended (a slow client) is no fault if its re-watch delivered the rest
                boolean bad = !clean || s.errors > 0 || s.malformed > 0 || s.wrongNamespace > 0
                        || s.rewatchFailures > 0 || (s.endedByServer > 0 && !o.rewatch);
                if (bad) {
                    unclean++;
                    if (details.size() < 10) {
                        details.add(String.format("  watch %d (%s): expected %d, %s; errors %d, malformed %d, "
                                        + "wrong namespace %d, ended by server %d (last: %s), re-watches %d%s",
                                s.id, s.namespace == null ? "all namespaces" : s.namespace, exp[0].length, c,
                                s.errors, s.malformed, s.wrongNamespace, s.endedByServer, s.lastEndReason,
                                s.rewatches, s.firstError == null ? "" : ", first ERROR: " + s.firstError));
                    }
                }
            }

            // 7. report
            double writeSeconds = Math.max(1e-9, (writer.lastResponseNanos - writer.firstSendNanos) / 1e9);
            double deliverSeconds = received == 0 ? 1 : (lastReceive - writer.firstSendNanos) / 1e9;
            double phaseSeconds = (wall1 - wall0) / 1e9;
            double ownCpu = (ownCpu1 - ownCpu0) / 1e9;
            System.out.printf("writes: %d of %d succeeded (%d creates, %d updates), %d failed%s%n", writer.succeeded,
                    o.writes, writer.creates, writer.updates, writer.failed,
                    writer.firstFailure == null ? "" : "; first failure: " + writer.firstFailure);
            System.out.printf("writes/s: %.0f (%d writes in %.2f s)%s%n", writer.succeeded / writeSeconds,
                    writer.succeeded, writeSeconds, o.rate > 0
                            ? String.format("; target %.0f/s, latest send %s ms behind schedule", o.rate,
                            LatencyRecorder.ms(writer.maxLagNanos)) : "");
            System.out.println("write latency (request sent -> response read): " + writer.latency.summaryMillis());
            System.out.printf("events: expected %d, delivered %d%s; bookmarks %d, ERROR events %d, malformed %d%n",
                    expectedTotal, received, drained ? "" : " (gave up: nothing arrived for "
                            + o.drainTimeoutSeconds + " s)", bookmarks, errors, malformed);
            System.out.printf("streams: ended by the server %d, re-watched %d (failed re-watches %d)%n",
                    endedByServer, rewatches, rewatchFailures);
            System.out.printf("check: %d of %d reading watchers unclean; lost %d (at most %d for one watcher), "
                            + "duplicated %d, out of order %d, unexpected %d, wrong type %d, wrong namespace %d%s%n",
                    unclean, live.size() - stalled, lost, maxLost, duplicated, outOfOrder, unexpected, wrongType,
                    wrongNamespace, o.format == LoadOptions.Format.SSE ? ", SSE id != resourceVersion "
                            + sseIdMismatch : "");
            details.forEach(System.out::println);
            if (stalled > 0) {
                System.out.printf("stalled (not reading, left out of the check): %d watchers, ended by the server "
                        + "%d times%n", stalled, stalledEnded);
            }
            System.out.println("delivery latency (write sent -> event received): " + latency.summaryMillis()
                    + (noTimestamp > 0 ? " (" + noTimestamp + " events without a send time)" : ""));
            System.out.printf("delivered events/s: %.0f (%d events in %.2f s from the first write sent to the "
                    + "last event received)%n", received / deliverSeconds, received, deliverSeconds);
            System.out.printf("client CPU: %.2f s over %.2f s = %.2f cores (this JVM: writer, %d watch streams,"
                    + " and the Maven JVM around it when run through exec:java)%n", ownCpu, phaseSeconds,
                    ownCpu / phaseSeconds, live.size());
            double serverCpu = -1;
            if (o.serverPid > 0) {
                serverCpu = (serverCpu1 - serverCpu0) / 1e9;
                System.out.printf("server CPU: %.2f s over %.2f s = %.2f cores; RSS now %d MiB, sampled peak "
                                + "during the run %d MiB, VmHWM (peak since start) %d MiB; threads %d -> %d%n",
                        serverCpu, phaseSeconds, serverCpu / phaseSeconds, serverRss / 1024,
                        rss.maxKib() / 1024, serverHwm / 1024, serverThreads0, serverThreads1);
            }
            System.out.println("load average after the run: " + ProcessStats.loadAverage());
            boolean ok = live.size() == o.watchers && unclean == 0 && writer.failed == 0 && drained;
            System.out.println("verdict: " + (ok ? "OK" : "PROBLEMS (see above)"));
            System.out.printf(Locale.ROOT, "RESULT | %s | %d | %d | %s | %d | %s | %d/%d | %d / %d | %d / %d / %d "
                            + "| %s | %s | %s | %s | %s | %.0f | %.0f | %.2f | %s | %s |%n",
                    date.substring(0, 10), o.watchers, o.namespaces, o.watchesPerStream > 0
                            ? "stream of " + o.watchesPerStream : o.format.name().toLowerCase(), o.writes,
                    o.rate == 0 ? "max" : String.format("%.0f", o.rate), live.size(), o.watchers, received,
                    expectedTotal, lost, duplicated, outOfOrder, LatencyRecorder.ms(latency.percentile(0.5)),
                    LatencyRecorder.ms(latency.percentile(0.9)), LatencyRecorder.ms(latency.percentile(0.99)),
                    LatencyRecorder.ms(latency.percentile(0.999)), LatencyRecorder.ms(latency.max()),
                    writer.succeeded / writeSeconds, received / deliverSeconds, ownCpu / phaseSeconds,
                    serverCpu < 0 ? "-" : String.format(Locale.ROOT, "%.2f", serverCpu / phaseSeconds),
                    o.serverPid > 0 ? String.valueOf(rss.maxKib() / 1024) : "-");

            // 8. clean up
            if (o.cleanup) {
                for (String ns : namespaces) {
                    call(HttpMethod.DELETE, "/api/v1/namespaces/" + ns, null);
                }
            }
            admin.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            return ok ? 0 : 1;
        }

        /** The indexes of the namespaces a watcher watches: one, or a stream's. */
        private int[] namespacesOf(WatchConnection s) {
            if (o.watchesPerStream == 0) {
                return new int[] {s.id % o.namespaces};
            }
            int[] watched = new int[o.watchesPerStream];
            for (int j = 0; j < watched.length; j++) {
                watched[j] = (s.id + j) % o.namespaces;
            }
            return watched;
        }

        /** Waits until {@code expected} events were delivered (true), or none came for the drain timeout. */
        private boolean awaitDeliveries(LongAdder delivered, long expected) throws InterruptedException {
            long lastCount = -1;
            long lastProgress = System.nanoTime();
            while (true) {
                long count = delivered.sum();
                long now = System.nanoTime();
                if (count >= expected) {
                    return true;
                }
                if (count != lastCount) {
                    lastCount = count;
                    lastProgress = now;
                } else if (now - lastProgress > TimeUnit.SECONDS.toNanos(o.drainTimeoutSeconds)) {
                    return false;
                }
                Thread.sleep(5);
            }
        }

        private record Reply(int statusCode, Buffer body) {
        }

        private Reply call(HttpMethod method, String uri, Buffer body) throws Exception {
            RequestOptions request = new RequestOptions().setMethod(method).setHost(o.host).setPort(o.port)
                    .setURI(uri).addHeader("Content-Type", "application/json");
            Future<Reply> reply = admin.request(o.authorized(request))
                    .compose(req -> body == null ? req.send() : req.send(body))
                    .compose(resp -> resp.body().map(b -> new Reply(resp.statusCode(), b)));
            return reply.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
