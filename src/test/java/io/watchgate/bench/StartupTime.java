package io.watchgate.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Start-up as a client sees it: launches the server's command, asks {@code GET /version} every 5 ms from the
 * launch, and reports when the first answer came, how much CPU the server had spent by then, and its resident
 * memory once it has sat idle; then stops it (SIGTERM) and starts the next run.
 *
 * <pre>
 * java -cp ... io.watchgate.bench.StartupTime RUNS IDLE_SECONDS PORT -- java -jar target/quarkus-app/quarkus-run.jar
 * </pre>
 *
 * The server's output goes to {@code startup-N.log} in the working directory. A durable server started on the same
 * data directory each run opens what the first run wrote, as a restarted pod does.
 */
public final class StartupTime {

    private record Run(long firstAnswerMillis, long cpuMillis, long idleRssKib) {
    }

    public static void main(String[] args) throws Exception {
        int separator = Arrays.asList(args).indexOf("--");
        if (separator != 3) {
            System.err.println("usage: StartupTime RUNS IDLE_SECONDS PORT -- COMMAND...");
            System.exit(2);
        }
        int runs = Integer.parseInt(args[0]);
        int idleSeconds = Integer.parseInt(args[1]);
        URI version = URI.create("http://127.0.0.1:" + Integer.parseInt(args[2]) + "/version");
        List<String> command = List.of(args).subList(separator + 1, args.length);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        answers(client, HttpRequest.newBuilder(version).build()); // the client's own start-up, before any launch

        List<Run> done = new ArrayList<>();
        for (int i = 1; i <= runs; i++) {
            Run run = once(command, client, version, idleSeconds, Path.of("startup-" + i + ".log"));
            done.add(run);
            System.out.printf("run %d: first answer %d ms after launch, %d ms of CPU by then, RSS %.0f MiB after %d s"
                    + " idle (load %s)%n", i, run.firstAnswerMillis(), run.cpuMillis(), run.idleRssKib() / 1024.0,
                    idleSeconds, ProcessStats.loadAverage());
        }
        System.out.printf("median of %d: first answer %d ms, CPU %d ms, idle RSS %.0f MiB%n", runs,
                median(done.stream().mapToLong(Run::firstAnswerMillis).toArray()),
                median(done.stream().mapToLong(Run::cpuMillis).toArray()),
                median(done.stream().mapToLong(Run::idleRssKib).toArray()) / 1024.0);
    }

    private static Run once(List<String> command, HttpClient client, URI version, int idleSeconds, Path log)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(version).timeout(Duration.ofSeconds(1)).build();
        long launched = System.nanoTime();
        Process server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Thread stopOnExit = new Thread(server::destroyForcibly); // interrupted (^C): no server is left behind
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        try {
            long deadline = launched + TimeUnit.SECONDS.toNanos(60);
            while (!answers(client, request)) {
                if (!server.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the server did not answer " + version + " (see " + log + ")");
                }
                Thread.sleep(5);
            }
            long firstAnswer = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launched);
            long cpu = ProcessStats.cpuNanos(server.pid());
            Thread.sleep(TimeUnit.SECONDS.toMillis(idleSeconds));
            long rss = ProcessStats.statusKib(server.pid(), "VmRSS");
            if (cpu < 0 || rss < 0 || !server.isAlive()) {
                throw new IllegalStateException("the server ended, or /proc could not be read (see " + log + ")");
            }
            return new Run(firstAnswer, TimeUnit.NANOSECONDS.toMillis(cpu), rss);
        } finally {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        }
    }

    private static boolean answers(HttpClient client, HttpRequest request) throws InterruptedException {
        try {
            return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private StartupTime() {
    }
}
