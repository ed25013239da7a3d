package io.watchgate.kubectl;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real kubectl, run with a given kubeconfig, a HOME and discovery cache of its own (nothing of the developer's is
 * read); each command's exit code, stdout and stderr kept for the assertions and for the failure message.
 */
final class KubectlSession {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    /** kubectl as found on PATH, or empty. */
    static final Optional<Path> KUBECTL = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
            .map(dir -> Path.of(dir, "kubectl")).filter(Files::isExecutable).findFirst();

    record Result(String command, int exitCode, String stdout, String stderr) {

        List<String> lines() {
            return stdout.lines().toList();
        }

        @Override
        public String toString() {
            return "\n$ " + command + "\n[exit " + exitCode + "]\n[stdout]\n" + stdout + "[stderr]\n" + stderr;
        }
    }

    private final Path dir;
    private final Path kubeconfig;
    private int commands;

    KubectlSession(Path dir, Path kubeconfig) throws IOException {
        this.dir = dir;
        this.kubeconfig = kubeconfig;
        Files.createDirectories(dir.resolve("home"));
    }

    Result run(String... args) {
        int n = ++commands;
        Path out = dir.resolve("out-" + n);
        Path err = dir.resolve("err-" + n);
        List<String> command = new ArrayList<>(List.of(KUBECTL.orElseThrow().toString(), "--kubeconfig",
                kubeconfig.toString(), "--cache-dir", dir.resolve("cache").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        Map<String, String> env = builder.environment();
        String path = env.get("PATH");
        env.clear();
        env.put("PATH", path);
        env.put("HOME", dir.resolve("home").toString());
        String shown = "kubectl " + String.join(" ", args);
        try {
            Process process = builder.start();
            if (!process.waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                fail("did not finish in " + COMMAND_TIMEOUT + ": " + shown);
            }
            return new Result(shown, process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
