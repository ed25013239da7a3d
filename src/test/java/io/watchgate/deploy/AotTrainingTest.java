package io.watchgate.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The training client of the AOT image (src/main/docker/Dockerfile.jvm-aot) against the server it trains: run as the
 * image runs it, it gets every answer it expects, and both of its watches see every one of its writes. A server that
 * broke one of them would fail the image's build.
 */
@QuarkusTest
class AotTrainingTest {

    private static final Path CLIENT = Path.of("src/main/docker/aot/AotTraining.java");

    @TestHTTPResource("/")
    URI server;

    @Test
    void theTrainingClientGetsEveryAnswerItExpects() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path output = Files.createTempFile("aot-training", ".log");
        try {
            // the single-file source launcher: the same source the image compiles, with 20 objects where the image
            // writes 200 (the same requests, each kind as often as the image's run needs to prove it answered)
            Process client = new ProcessBuilder(java, CLIENT.toString(), server.toString().replaceAll("/$", ""), "20")
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            boolean ended = client.waitFor(120, TimeUnit.SECONDS);
            if (!ended) {
                client.destroyForcibly().waitFor();
            }
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            assertTrue(ended, "the training client did not end within 120 s: " + printed);
            assertEquals(0, client.exitValue(), printed);
            assertTrue(printed.contains("AOT training: done"), printed);
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
