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

    private final String name;
    private final Path dataDir;
    private final int clientPort;
    private final int peerPort;
    /** Where /health is served, over plain HTTP whatever the client port speaks. */
    private final int metricsPort;
    /** TLS of the client port (client certificates required), or null. */
    private final Tls tls;
    /** Every member's name and peer URL, {@code name=url,...}: set once the cluster's members are known. */
    private String initialCluster;
    private Process process;

    private EtcdServer(String name, Path dataDir, int clientPort, int peerPort, Tls tls) throws IOException {
        this.name = name;
        this.dataDir = dataDir;
        this.clientPort = clientPort;
        this.peerPort = peerPort;
        this.metricsPort = freePort();
        this.tls = tls;
    }

    /** PEM files of etcd's serving certificate, its key, and the CA its clients' certificates must chain to. */
    public record Tls(Path certFile, Path keyFile, Path clientCaFile) {
    }

    /** Starts a one-member etcd whose client port speaks TLS and asks for a client certificate. */
    public static EtcdServer startTls(Tls tls) {
        assumeTrue(isInstalled(), "etcd is not installed (Debian package etcd-server)");
        try {
            EtcdServer server = new EtcdServer("tls", Files.createTempDirectory("etcd-"), freePort(), freePort(), tls);
            server.initialCluster = "tls=" + server.peerUrl();
            server.launch();
            server.awaitHealthy();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts a one-member etcd; skips the calling test when etcd is not installed. */
    public static EtcdServer start() {
        return cluster(1).get(0);
    }

    /** Starts an etcd cluster of {@code size} members on loopback, returning once every member is healthy. */
    public static List<EtcdServer> cluster(int size) {
        assumeTrue(isInstalled(), "etcd is not installed (Debian package etcd-server)");
        try {
            List<EtcdServer> members = new java.util.ArrayList<>();
            for (int i = 0; i < size; i++) {
                members.add(new EtcdServer("member-" + i, Files.createTempDirectory("etcd-"), freePort(),
                        freePort(), null));
            }
            String initial = String.join(",", members.stream().map(m -> m.name + "=" + m.peerUrl()).toList());
            for (EtcdServer member : members) {
                member.initialCluster = initial;
                member.launch(); // all at once: a member is healthy only once a quorum is up
            }
            for (EtcdServer member : members) {
                member.awaitHealthy();
            }
            return members;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String peerUrl() {
        return "http://127.0.0.1:" + peerPort;
    }

    public static boolean isInstalled() {
        return Files.isExecutable(BINARY);
    }

    public String endpoint() {
        return (tls == null ? "http" : "https") + "://127.0.0.1:" + clientPort;
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

    /** Starts the stopped member again on its data, returning once it is healthy. */
    public void restart() {
        stop();
        launch();
        awaitHealthy();
    }

    /** kill -9: no shutdown at all. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
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

    private void launch() {
        List<String> command = new java.util.ArrayList<>(List.of(BINARY.toString(), "--name", name, "--data-dir",
                dataDir.resolve("data").toString(), "--listen-client-urls", endpoint(), "--advertise-client-urls",
                endpoint(), "--listen-peer-urls", peerUrl(), "--initial-advertise-peer-urls", peerUrl(),
                "--initial-cluster", initialCluster, "--initial-cluster-token", "watchgate-test",
                "--listen-metrics-urls", "http://127.0.0.1:" + metricsPort,
                "--logger", "zap", "--log-outputs", dataDir.resolve("etcd.log").toString(), "--log-level", "warn"));
        if (tls != null) {
            command.addAll(List.of("--cert-file", tls.certFile().toString(), "--key-file", tls.keyFile().toString(),
                    "--client-cert-auth", "--trusted-ca-file", tls.clientCaFile().toString()));
        }
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dataDir.resolve("etcd.out").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitHealthy() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/health"))
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
