package io.watchgate.persistence;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged application (target/quarkus-app, or the native executable in the native profile), run as a child
 * process on a data directory of the test's.
 */
public final class PackagedApp implements AutoCloseable {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final int port;
    private final Path log;

    private PackagedApp(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts the app and returns once it answers HTTP (30 s at most). */
    public static PackagedApp start(Path dataDir, Path log, String... properties) throws Exception {
        boolean nativeImage = Boolean.getBoolean("watchgate.it.native");
        Path binary = nativeImage ? Path.of(System.getProperty("native.image.path", "target/watchgate-runner"))
                : Path.of(System.getProperty("quarkus.app.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.exists(binary)) {
            throw new IllegalStateException(binary + " is missing: run the integration tests after `package`");
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        // the same flags for a native executable as for the JVM: both read -D properties and -Xmx
        List<String> command = new ArrayList<>(nativeImage ? List.of(binary.toString())
                : List.of(ProcessHandle.current().info().command().orElse("java")));
        // the management interface (health, metrics) on any free port: these tests do not call it
        command.addAll(List.of("-Xmx256m", "-Dquarkus.http.port=" + port, "-Dquarkus.management.port=0",
                "-Dquarkus.http.ssl-port=0", // HTTPS with the bootstrap certificate, on any free port
                "-Dwatchgate.storage.mode=durable",
                "-Dwatchgate.storage.data-dir=" + dataDir, "-Dwatchgate.storage.create-data-dir=true",
                // open, as tests run (these test storage, not access); a test of access turns it on again
                "-Dwatchgate.auth.anonymous=true", "-Dwatchgate.auth.authorization-mode=AlwaysAllow",
                // and without per-user shares: every request of these tests is the same anonymous user
                "-Dwatchgate.fairness.max-requests-inflight-per-user=0", "-Dwatchgate.fairness.max-watches-per-user=0",
                "-Dwatchgate.fairness.mutating-requests-per-second-per-user=0"));
        for (String property : properties) {
            command.add("-D" + property);
        }
        if (!nativeImage) {
            // the test JVMs' own options (the pom's test.jvm.options): these apps start, take some writes and stop
            String jvmOptions = System.getProperty("watchgate.it.jvm-options", "").strip();
            if (!jvmOptions.isEmpty()) {
                command.addAll(1, List.of(jvmOptions.split("\\s+")));
            }
            command.addAll(List.of("-jar", binary.toString()));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        PackagedApp app = new PackagedApp(process, port, log);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the app exited with " + process.exitValue() + " while starting; see "
                        + log);
            }
            try {
                int code = app.get("/version").statusCode();
                if (code == 200 || code == 401) { // 401: up, with anonymous requests off
                    return app;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                app.kill();
                throw new IllegalStateException("the app did not answer within 30 s; see " + log);
            }
            Thread.sleep(50); // polling for readiness, with a deadline: nothing is hidden by it
        }
    }

    public URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> put(String path, String json) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> delete(String path) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Where the app's output goes. */
    public Path log() {
        return log;
    }

    /** SIGTERM, as Kubernetes stops a pod; returns once the process has exited (or throws after {@code seconds}). */
    public int terminate(long seconds) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the app did not exit within " + seconds + " s of SIGTERM");
        }
        return process.exitValue();
    }

    /** kill -9: no shutdown hook, no flush, nothing. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
