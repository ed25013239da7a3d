package io.watchgate.authn;

import static io.watchgate.patch.Linearity.assertLinear;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The token file reads as kube-apiserver's tokenfile.NewCSV reads it (its tokenfile_test.go cases first). */
class TokenFileTest {

    private static final String AUTHENTICATED = UserInfo.AUTHENTICATED;

    @TempDir
    Path dir;

    static TokenTable parse(String text) throws TokenFile.Unreadable {
        return TokenFile.parse("tokens.csv", text.getBytes(StandardCharsets.UTF_8));
    }

    static UserInfo user(String name, String uid, String... groups) {
        return UserInfo.authenticated(name, uid, List.of(groups));
    }

    @Test
    void readsKubesOwnExample() throws Exception {
        TokenTable table = parse("""

                token1,user1,uid1
                token2,user2,uid2
                token3,user3,uid3,"group1,group2"
                token4,user4,uid4,"group2"
                token5,user5,uid5,group5
                token6,user6,uid6,group5,otherdata
                token7,user7,uid7,"group1,group2",otherdata
                """);
        assertEquals(Optional.of(user("user1", "uid1")), table.find("token1"));
        assertEquals(Optional.of(user("user2", "uid2")), table.find("token2"));
        assertEquals(Optional.of(user("user3", "uid3", "group1", "group2")), table.find("token3"));
        assertEquals(Optional.of(user("user4", "uid4", "group2")), table.find("token4"));
        assertEquals(Optional.of(user("user5", "uid5", "group5")), table.find("token5"));
        assertEquals(Optional.of(user("user6", "uid6", "group5")), table.find("token6"));
        assertEquals(Optional.of(user("user7", "uid7", "group1", "group2")), table.find("token7"));
        assertEquals(Optional.empty(), table.find("token8"));
        assertEquals(List.of("group1", "group2", AUTHENTICATED), table.find("token3").orElseThrow().groups());
    }

    @Test
    void aRecordOfFewerThanThreeColumnsIsAnErrorNamingFileAndLine() {
        TokenFile.Unreadable error = assertThrows(TokenFile.Unreadable.class,
                () -> parse("token1,user1,uid1\ntoken2,user2,uid2\nsecret3,user3\ntoken4\n"));
        assertTrue(error.getMessage().contains("'tokens.csv'"), error.getMessage());
        assertTrue(error.getMessage().contains("at least 3 columns"), error.getMessage());
        assertTrue(error.getMessage().contains("found 2 in the record on line 3"), error.getMessage());
        assertFalse(error.getMessage().contains("secret3"), "never the file's text: " + error.getMessage());
        assertThrows(TokenFile.Unreadable.class, () -> parse("token4\n"));
    }

    @Test
    void anEmptyTokenIsSkippedWithAWarning() throws Exception {
        try (LogCapture log = new LogCapture()) {
            TokenTable table = parse(",user5,uid5\ntoken6,user6,uid6\n");
            assertEquals(1, table.size());
            assertEquals(Optional.empty(), table.find(""));
            assertTrue(log.lines().stream().anyMatch(line -> line.contains("empty token") && line.contains("1")),
                    log.lines().toString());
        }
    }

    @Test
    void aDuplicateTokenIsWarnedAboutAndItsLaterRecordCountsAsInKube() throws Exception {
        try (LogCapture log = new LogCapture()) {
            TokenTable table = parse("secret1,first,uid1\nsecret1,second,uid2\n");
            assertEquals(1, table.size());
            assertEquals("second", table.find("secret1").orElseThrow().name());
            assertTrue(log.lines().stream().anyMatch(line -> line.contains("duplicate token")),
                    log.lines().toString());
            assertTrue(log.lines().stream().noneMatch(line -> line.contains("secret1")), log.lines().toString());
        }
    }

    @Test
    void whitespaceIsKeptAsGoCsvKeepsIt() throws Exception {
        // kube does not set TrimLeadingSpace: " user" is a name starting with a space
        TokenTable table = parse("token1, user1 ,uid1,group1, group2\r\n");
        assertEquals(Optional.empty(), table.find("token1 "));
        UserInfo user = table.find("token1").orElseThrow();
        assertEquals(" user1 ", user.name());
        assertEquals(List.of("group1", AUTHENTICATED), user.groups());
        TokenFile.Unreadable blankish = assertThrows(TokenFile.Unreadable.class, () -> parse("t,u,i\n   \n"));
        assertTrue(blankish.getMessage().contains("found 1 in the record on line 2"), blankish.getMessage());
    }

    @Test
    void quotedFieldsMaySpanLinesAndHoldQuotesAndCommas() throws Exception {
        TokenTable table = parse("\"tok,en\",\"say \"\"hi\"\"\",\"u\nid\",\"a,,b\"\r\nt2,u2,uid2,\n\nt3,u3,uid3,\"\"");
        UserInfo user = table.find("tok,en").orElseThrow();
        assertEquals("say \"hi\"", user.name());
        assertEquals("u\nid", user.uid());
        assertEquals(List.of("a", "", "b", AUTHENTICATED), user.groups());
        // strings.Split("", ",") is [""]: kube gives such a user one empty group name
        assertEquals(List.of("", AUTHENTICATED), table.find("t2").orElseThrow().groups());
        assertEquals(List.of("", AUTHENTICATED), table.find("t3").orElseThrow().groups());
    }

    @Test
    void quotesOutOfPlaceAreErrorsAsInGoCsv() {
        for (String text : List.of("tok\"en,u,i\n", "t,u,i, \"g\"\n", "\"secret\"x,u,i\n", "t,u,\"open\n")) {
            TokenFile.Unreadable error = assertThrows(TokenFile.Unreadable.class, () -> parse(text), text);
            assertTrue(error.getMessage().startsWith("token file 'tokens.csv': parse error on line 1"),
                    error.getMessage());
            assertFalse(error.getMessage().contains("secret"), error.getMessage());
        }
        TokenFile.Unreadable later = assertThrows(TokenFile.Unreadable.class, () -> parse("a,b,c\n\"x\ny\"z,b,c"));
        assertTrue(later.getMessage().contains("record on line 2; parse error on line 3, column 3"),
                later.getMessage());
    }

    @Test
    void textThatIsNotUtf8IsRefused() {
        byte[] latin1 = {'t', (byte) 0xe9, ',', 'u', ',', 'i', '\n'};
        TokenFile.Unreadable error = assertThrows(TokenFile.Unreadable.class,
                () -> TokenFile.parse("tokens.csv", latin1));
        assertTrue(error.getMessage().contains("not UTF-8"), error.getMessage());
    }

    @Test
    void aFileLargerThanTheBoundIsRefusedWithoutReadingItWhole() throws Exception {
        Path file = dir.resolve("tokens.csv");
        Files.write(file, new byte[TokenFile.MAX_BYTES + 1]);
        TokenFile.Unreadable error = assertThrows(TokenFile.Unreadable.class, () -> TokenFile.read(file));
        assertTrue(error.getMessage().contains("larger than " + TokenFile.MAX_BYTES + " bytes"), error.getMessage());
        Files.write(file, new byte[TokenFile.MAX_BYTES]);
        assertEquals(TokenFile.MAX_BYTES, TokenFile.read(file).length);
    }

    @Test
    void moreTokensThanTheBoundAreRefused() {
        String text = tokens(TokenFile.MAX_TOKENS + 1);
        TokenFile.Unreadable error = assertThrows(TokenFile.Unreadable.class, () -> parse(text));
        assertTrue(error.getMessage().contains("more than " + TokenFile.MAX_TOKENS + " tokens"), error.getMessage());
    }

    @Test
    void aFileIsReadInTimeLinearInItsSize() {
        // a file near the bound once took minutes to read: each field looked for a stray quote to the end of the text
        assertLinear("reading a token file", lines -> {
            String text = tokens(lines);
            return () -> {
                try {
                    parse(text);
                } catch (TokenFile.Unreadable e) {
                    throw new AssertionError(e);
                }
            };
        }, 2_000);
    }

    private static String tokens(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append('t').append(i).append(",user").append(i).append(",uid").append(i).append(",group\n");
        }
        return text.toString();
    }

    @Test
    void aMissingFileOrADirectoryIsNamedAsSuch() {
        assertTrue(assertThrows(TokenFile.Unreadable.class, () -> TokenFile.read(dir.resolve("none.csv")))
                .getMessage().contains("does not exist"));
        assertTrue(assertThrows(TokenFile.Unreadable.class, () -> TokenFile.read(dir)).getMessage()
                .contains("not a regular file"));
    }
}
