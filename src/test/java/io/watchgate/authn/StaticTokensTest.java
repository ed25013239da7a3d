package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens of the token file are recognized, and a changed file replaces them, unless it does not read. */
class StaticTokensTest {

    @TempDir
    Path dir;

    private final MeterRegistry registry = new SimpleMeterRegistry();

    private StaticTokens tokensFrom(Path file) {
        StaticTokens tokens = new StaticTokens(AuthSettings.defaults().withTokenFile(file), null, null, registry);
        tokens.useTokenFile(file);
        return tokens;
    }

    /** Writes the file and moves its modification time on, as a later edit would. */
    private static void rewrite(Path file, String text, int secondsLater) throws Exception {
        FileTime before = Files.exists(file) ? Files.getLastModifiedTime(file) : FileTime.fromMillis(0);
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + secondsLater * 1000L));
    }

    private double reloads(String result) {
        return registry.get("watchgate.token.file.reloads").tag("result", result).counter().count();
    }

    @Test
    void recognizesExactlyTheTokensOfTheFile() throws Exception {
        Path file = dir.resolve("tokens.csv");
        Files.writeString(file, "alpha-token,alice,uid-a,\"devs,ops\"\nbeta-token,bob,uid-b\n");
        StaticTokens tokens = tokensFrom(file);
        assertEquals(Optional.of(UserInfo.authenticated("alice", "uid-a", List.of("devs", "ops"))),
                tokens.authenticate("alpha-token"));
        assertEquals("bob", tokens.authenticate("beta-token").orElseThrow().name());
        for (String near : List.of("alpha-toke", "alpha-token ", "ALPHA-TOKEN", "", "alpha-token\n")) {
            assertEquals(Optional.empty(), tokens.authenticate(near), "'" + near + "'");
        }
    }

    @Test
    void aChangedFileIsSwappedInAndARemovedTokenNoLongerWorks() throws Exception {
        Path file = dir.resolve("tokens.csv");
        rewrite(file, "old-token,old,uid-o\nkept-token,kept,uid-k\n", 0);
        StaticTokens tokens = tokensFrom(file);

        rewrite(file, "kept-token,kept,uid-k\nnew-token,new,uid-n,admins\n", 1);
        tokens.checkNow();

        assertEquals(Optional.empty(), tokens.authenticate("old-token"));
        assertEquals("kept", tokens.authenticate("kept-token").orElseThrow().name());
        assertEquals(List.of("admins", UserInfo.AUTHENTICATED),
                tokens.authenticate("new-token").orElseThrow().groups());
        assertEquals(1, reloads("ok"));
        assertEquals(0, reloads("failed"));
    }

    @Test
    void aBrokenRewriteKeepsTheLastGoodTableCountsAFailureOnceAndLogsNoToken() throws Exception {
        Path file = dir.resolve("tokens.csv");
        rewrite(file, "good-secret,alice,uid-a\n", 0);
        StaticTokens tokens = tokensFrom(file);
        try (LogCapture log = new LogCapture()) {
            rewrite(file, "good-secret,alice,uid-a\nbroken-secret,bob\n", 1);
            tokens.checkNow();
            tokens.checkNow(); // the same broken version: not read, not reported again

            assertEquals("alice", tokens.authenticate("good-secret").orElseThrow().name());
            assertEquals(Optional.empty(), tokens.authenticate("broken-secret"));
            assertEquals(1, reloads("failed"));
            assertEquals(0, reloads("ok"));
            List<String> errors = log.lines().stream().filter(line -> line.startsWith("ERROR")).toList();
            assertEquals(1, errors.size(), log.lines().toString());
            assertTrue(errors.get(0).contains("at least 3 columns"), errors.get(0));
            assertTrue(log.lines().stream().noneMatch(line -> line.contains("secret")), log.lines().toString());
        }

        rewrite(file, "good-secret,alice,uid-a\nmended-secret,bob,uid-b\n", 2);
        tokens.checkNow();
        assertEquals("bob", tokens.authenticate("mended-secret").orElseThrow().name());
        assertEquals(1, reloads("ok"));
    }

    @Test
    void aDeletedFileKeepsTheTokensAndIsReportedOnce() throws Exception {
        Path file = dir.resolve("tokens.csv");
        rewrite(file, "t1,alice,uid-a\n", 0);
        StaticTokens tokens = tokensFrom(file);
        Files.delete(file);
        tokens.checkNow();
        tokens.checkNow();
        assertEquals("alice", tokens.authenticate("t1").orElseThrow().name());
        assertEquals(1, reloads("failed"));

        rewrite(file, "t1,alice,uid-a\n", 0); // back as it was: nothing to reload
        tokens.checkNow();
        assertEquals(0, reloads("ok"));
        assertEquals("alice", tokens.authenticate("t1").orElseThrow().name());
    }

    @Test
    void aNewTimestampOnTheSameContentIsNoReload() throws Exception {
        Path file = dir.resolve("tokens.csv");
        rewrite(file, "t1,alice,uid-a\n", 0);
        StaticTokens tokens = tokensFrom(file);
        rewrite(file, "t1,alice,uid-a\n", 5);
        tokens.checkNow();
        assertEquals(0, reloads("ok"));
        assertEquals(0, reloads("failed"));
    }

    @Test
    void aTokenFileThatDoesNotReadStopsTheStartWithoutQuotingIt() throws Exception {
        Path file = dir.resolve("tokens.csv");
        Files.writeString(file, "lonely-secret\n");
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> tokensFrom(file));
        assertTrue(error.getMessage().startsWith("watchgate.auth.token-file: token file '"), error.getMessage());
        assertFalse(error.getMessage().contains("lonely-secret"), error.getMessage());
        assertThrows(IllegalStateException.class, () -> tokensFrom(dir.resolve("missing.csv")));
    }
}
