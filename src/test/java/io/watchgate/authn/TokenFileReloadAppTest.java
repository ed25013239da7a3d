package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The running server notices a rewritten token file by itself, on its timer, and goes by what it says from then. */
@QuarkusTest
@TestProfile(RbacOn.class)
class TokenFileReloadAppTest {

    private static final String NEW_TOKEN = "dave-token-0123456789";

    @Inject
    StaticTokens tokens;

    @Test
    void aRewrittenFileIsPickedUpWithoutARestart() throws Exception {
        Path file = RbacOn.TOKEN_FILE;
        String before = Files.readString(file);
        String carol = Users.CAROL.token();
        assertEquals("carol", tokens.authenticate(carol).orElseThrow().name());
        assertEquals(Optional.empty(), tokens.authenticate(NEW_TOKEN));
        try {
            // carol's line goes, dave's comes
            String rewritten = before.lines().filter(line -> !line.startsWith(carol + ","))
                    .map(line -> line + "\n").collect(Collectors.joining())
                    + NEW_TOKEN + ",dave,uid-d,system:masters\n";
            replace(file, rewritten);
            awaitTrue(() -> tokens.authenticate(NEW_TOKEN).isPresent(), "the new token is taken");
            assertTrue(tokens.authenticate(NEW_TOKEN).orElseThrow().isMaster());
            assertEquals(Optional.empty(), tokens.authenticate(carol), "a token no longer in the file is refused");
        } finally {
            replace(file, before);
            awaitTrue(() -> tokens.authenticate(NEW_TOKEN).isEmpty() && tokens.authenticate(carol).isPresent(),
                    "the file as it was is taken again");
        }
    }

    /** Replaces the file as an operator's tooling (or a mounted Secret) does: a whole new file moved in place. */
    private static void replace(Path file, String content) throws Exception {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, content);
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20); // polled until the deadline: the server's check decides
        }
        assertTrue(condition.getAsBoolean(), what + " within 10 s");
    }
}
