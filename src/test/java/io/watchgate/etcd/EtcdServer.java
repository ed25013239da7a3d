package io.watchgate.etcd;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real etcd for a test: Debian's {@code etcd} binary (package {@code etcd-server}, which {@code .ci/run}
 * installs) on loopback ports, with its data in a temporary directory. A test without the binary is skipped.
 */
public final class EtcdServer implements AutoCloseable {

    private static final Path BINARY = Path.of("/usr/bin/etcd");

    private final Path dataDir;
    private final int clientPort;
    private final int peerPort;
    private Process process;

    private EtcdServer(Path dataDir, int clientPort, int peerPort) {
        this.dataDir = dataDir;
        this.clientPort = clientPort;
        this.peerPort = peerPort;
    }

    /** Starts a one-member etcd; skips the calling test when etcd is not installed. */
    public static EtcdServer start() {
        assumeTrue(isInstalled(), "etcd is not installed (Debian package etcd-server)");
        try {
            EtcdServer server = new EtcdServer(Files.createTempDirectory("etcd-"), freePort(), freePort());
            server.run();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static boolean isInstalled() {
        return Files.isExecutable(BINARY);
    }

    public String endpoint() {
        return "http://127.0.0.1:" + clientPort;
    }

    /** Stops etcd, keeping its data: {@link #restart} brings the same store back. */
    public void stop() {
        if (process != null) {
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    public void restart() {
        stop();
        run();
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }

    private void run() {
        String peer = "http://127.0.0.1:" + peerPort;
        List<String> command = List.of(BINARY.toString(), "--name", "test", "--data-dir", dataDir.resolve("data")
                .toString(), "--listen-client-urls", endpoint(), "--advertise-client-urls", endpoint(),
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", "test=" + peer, "--logger", "zap", "--log-outputs",
                dataDir.resolve("etcd.log").toString(), "--log-level", "warn");
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dataDir.resolve("etcd.out").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        awaitHealthy();
    }

    private void awaitHealthy() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(endpoint() + "/health"))
                .timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("etcd exited with " + process.exitValue() + ": " + log());
            }
            try {
                HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200 && answer.body().contains("true")) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            try {
                Thread.sleep(50); // polling a process we started for its readiness, not hiding a race
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("etcd did not become healthy in 30 s: " + log());
    }

    private String log() {
        try {
            return Files.readString(dataDir.resolve("etcd.out")) + Files.readString(dataDir.resolve("etcd.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
