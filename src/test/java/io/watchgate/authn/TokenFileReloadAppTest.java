package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The running server notices a rewritten token file by itself, on its timer. */
@QuarkusTest
@TestProfile(TokenFileReloadAppTest.WithTokenFile.class)
class TokenFileReloadAppTest {

    private static final Path FILE = tokenFile();

    public static class WithTokenFile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("watchgate.auth.token-file", FILE.toString(),
                    "watchgate.auth.token-file-check-interval", "50ms");
        }
    }

    @Inject
    StaticTokens tokens;

    @Test
    void aRewrittenFileIsPickedUpWithoutARestart() throws Exception {
        assertEquals("alice", tokens.authenticate("first-token").orElseThrow().name());

        Path next = FILE.resolveSibling("tokens.csv.next");
        Files.writeString(next, "second-token,bob,uid-b,system:masters\n");
        Files.move(next, FILE, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        long deadline = System.nanoTime() + 10_000_000_000L;
        while (tokens.authenticate("second-token").isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20); // polled until the deadline: the check itself decides
        }
        assertTrue(tokens.authenticate("second-token").orElseThrow().isMaster());
        assertEquals(Optional.empty(), tokens.authenticate("first-token"));
    }

    private static Path tokenFile() {
        try {
            Path file = Files.createTempDirectory("wg-tokens").resolve("tokens.csv");
            Files.writeString(file, "first-token,alice,uid-a\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
