package io.watchgate.hostile;

import io.watchgate.metrics.Samples;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged application as a hostile client meets it: a child process with a small heap ({@link #HEAP}, or less
 * where a test asks for it, so an unbounded structure fails a test instead of passing by luck), durable on a data directory of the test's, and with
 * Vert.x's blocked-thread checker looking every 20 ms for an event loop held longer than {@link #LOOP_LIMIT}.
 *
 * <p>{@link #close} fails the test when the app's log shows, after its warm-up, an event loop blocked past that limit
 * or an {@code OutOfMemoryError}: the two ways a request may hurt everyone else without any answer showing it.
 */
public final class HostileApp implements AutoCloseable {

    public static final String HEAP = "-Xmx512m";
    /**
     * The JIT's first tier only: what these tests check (memory bounds, loop times, answers) holds for code compiled
     * either way, and slower code only makes the loop limit harder to meet. The optimizing tier spent a quarter of
     * these short-lived apps' CPU compiling (all hostile tests: 121 CPU-seconds with it, 92 without).
     */
    static final String JIT = "-XX:TieredStopAtLevel=1";
    /**
     * How long a task may hold an event loop. The checker measures wall time, and on this 2-core machine with two
     * other busy processes a loop thread has waited 109 ms for a core (at a worker's unpark, with no work of its own
     * to do). The cost: work of 100 to 250 ms on a loop passes unseen, until the time a loop waited for a core is
     * left out of a report as GC pauses are ({@link AppLogHarms}).
     */
    static final String LOOP_LIMIT = "250ms";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final int port;
    private final int managementPort;
    private final Path log;
    private long logMark;

    private HostileApp(Process process, int port, int managementPort, Path log) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.log = log;
    }

    /**
     * Starts the app in {@code workDir} (its data directory and log go there), waits until it answers (30 s at most),
     * and warms it up: the first request of each kind loads classes on the event loop, which is no request's fault.
     */
    public static HostileApp start(Path workDir, String... properties) throws Exception {
        return startWithHeap(HEAP, workDir, properties);
    }

    /** Starts the app as {@link #start} does, with {@code heap} (an {@code -Xmx} option) instead of {@link #HEAP}. */
    public static HostileApp startWithHeap(String heap, Path workDir, String... properties) throws Exception {
        HostileApp app = launch(heap, workDir, properties);
        app.awaitReady(() -> app.send(app.request("/version").GET()).statusCode() == 200);
        app.warmUp();
        return app;
    }

    /**
     * Starts the app as {@link #start} does, but sends it nothing: returns once its log has a line containing
     * {@code logged} (30 s at most), for what must hold before any client has made a request.
     */
    public static HostileApp startUntouched(Path workDir, String logged, String... properties) throws Exception {
        HostileApp app = launch(HEAP, workDir, properties);
        app.awaitReady(() -> Files.readString(app.log, StandardCharsets.ISO_8859_1).contains(logged));
        app.logMark = Files.size(app.log); // what starting cost the event loops is no client's doing
        return app;
    }

    private static HostileApp launch(String heap, Path workDir, String... properties) throws Exception {
        Path jar = Path.of(System.getProperty("quarkus.app.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run the hostile tests after `package`");
        }
        int port = freePort();
        int managementPort = freePort();
        Path log = workDir.resolve("app.log");
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                heap, JIT, "-XX:+ExitOnOutOfMemoryError", "-Dquarkus.http.port=" + port,
                "-Dquarkus.management.port=" + managementPort,
                "-Dquarkus.http.ssl-port=0",
                "-Dwatchgate.storage.mode=durable", "-Dwatchgate.storage.data-dir=" + workDir.resolve("data"),
                "-Dwatchgate.storage.create-data-dir=true",
                "-Dquarkus.vertx.max-event-loop-execute-time=" + LOOP_LIMIT,
                "-Dquarkus.vertx.warning-exception-time=" + LOOP_LIMIT,
                "-Dwatchgate.event-loop.blocked-check-interval=20ms", "-Xlog:gc:stdout:time",
                // open, as tests run: the hostile cases are about load and input, not access
                "-Dwatchgate.auth.anonymous=true", "-Dwatchgate.auth.authorization-mode=AlwaysAllow",
                // and without per-user shares: every request of these tests is the same anonymous user
                "-Dwatchgate.fairness.max-requests-inflight-per-user=0", "-Dwatchgate.fairness.max-watches-per-user=0",
                "-Dwatchgate.fairness.mutating-requests-per-second-per-user=0"));
        for (String property : properties) {
            command.add("-D" + property);
        }
        command.addAll(List.of("-jar", jar.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new HostileApp(process, port, managementPort, log);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private interface Readiness {
        boolean ready() throws IOException, InterruptedException;
    }

    private void awaitReady(Readiness readiness) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the app exited with " + process.exitValue() + " while starting; see "
                        + log);
            }
            try {
                if (readiness.ready()) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                kill();
                throw new IllegalStateException("the app was not ready within 30 s; see " + log);
            }
            Thread.sleep(50); // polling for readiness, with a deadline: nothing is hidden by it
        }
    }

    /** One of each write and read, so that what a test sees afterwards is the request's doing, not class loading. */
    private void warmUp() throws Exception {
        String path = "/api/v1/namespaces/default/configmaps";
        for (int round = 0; round < 3; round++) {
            String name = "warm-up-" + round;
            send(request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                    "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"a\":\"b\"}},\"data\":{\"k\":\"v\"}}")));
            for (String type : List.of("application/merge-patch+json", "application/strategic-merge-patch+json")) {
                send(request(path + "/" + name).header("Content-Type", type)
                        .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"data\":{\"k\":\"w\"}}")));
            }
            send(request(path + "/" + name).header("Content-Type", "application/json-patch+json").method("PATCH",
                    HttpRequest.BodyPublishers.ofString("[{\"op\":\"add\",\"path\":\"/data/x\",\"value\":\"y\"}]")));
            send(request(path + "?labelSelector=a%3Db,c%20in%20(d)").GET());
            send(request(path + "?watch=1&timeoutSeconds=1").GET());
            send(request(path + "/" + name).DELETE());
        }
        logMark = Files.size(log);
    }

    public URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    public int port() {
        return port;
    }

    /** The value of a series the app's metrics scrape has now (0 while it has none), as Prometheus reads it. */
    public double metric(String series) throws IOException, InterruptedException {
        HttpResponse<String> scrape = CLIENT.send(HttpRequest.newBuilder(URI.create("http://localhost:"
                + managementPort + "/q/metrics")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        return Samples.valueOr0(scrape.body(), series);
    }

    /** A request to this app, with a 30 s timeout unless the caller sets another. */
    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
    }

    public HttpResponse<byte[]> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /**
     * Sends {@code head} (the request line and headers, each line ended by CRLF, without the blank line) and
     * {@code body} over a socket of its own, as no HTTP client library would send them, and returns what came back
     * until the server closed the connection (a {@code Connection: close} header is added) or 30 s went by.
     */
    public RawResponse raw(String head, byte[] body) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write((head + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return RawResponse.parse(socket.getInputStream().readAllBytes());
        }
    }

    /** An answer read off the wire: its status code, and its body undecoded (chunked bodies keep their framing). */
    public record RawResponse(int statusCode, String head, byte[] body) {

        static RawResponse parse(byte[] bytes) {
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            String head = end < 0 ? text : text.substring(0, end);
            int code = head.startsWith("HTTP/1.1 ") && head.length() >= 12 ? Integer.parseInt(head.substring(9, 12)) : -1;
            byte[] body = end < 0 ? new byte[0] : java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
            return new RawResponse(code, head, body);
        }
    }

    /** The app's log since its warm-up. */
    public String logSinceWarmUp() throws IOException {
        return logSince(logMark);
    }

    /** How long its log is now: what comes after is what follows from now on. */
    public long markLog() throws IOException {
        return Files.size(log);
    }

    private String logSince(long mark) throws IOException {
        byte[] all = Files.readAllBytes(log);
        return new String(all, (int) Math.min(mark, all.length), (int) Math.max(0, all.length - mark),
                StandardCharsets.UTF_8);
    }

    public Path log() {
        return log;
    }

    public boolean alive() {
        return process.isAlive();
    }

    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Stops the app, then fails if it ran out of memory or blocked an event loop after its warm-up. */
    @Override
    public void close() throws Exception {
        boolean diedOnItsOwn = !process.isAlive();
        kill();
        assertUnharmed(logMark, diedOnItsOwn);
    }

    /**
     * Fails if, since its log was {@code mark} bytes long ({@link #markLog}), the app ran out of memory, blocked an
     * event loop, or exited.
     */
    public void assertUnharmedSince(long mark) throws IOException {
        assertUnharmed(Math.max(mark, logMark), !process.isAlive());
    }

    private void assertUnharmed(long mark, boolean exited) throws IOException {
        List<String> harms = harms(logSince(mark));
        if (exited) {
            harms.add("the app exited with " + process.exitValue() + " before the test ended");
        }
        if (!harms.isEmpty()) {
            throw new AssertionError("the app was harmed (see " + log + "):\n" + String.join("\n", harms));
        }
    }

    /** What the app's log shows of harm to other clients: see {@link AppLogHarms}. */
    static List<String> harms(String log) {
        return AppLogHarms.in(log);
    }
}
