package io.watchgate.authn;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * kube-apiserver's static token file ({@code --token-auth-file}), read as its {@code tokenfile.NewCSV} reads it: CSV
 * records {@code token,user name,user uid[,"group1,group2"[,anything]]}. A record of fewer than 3 fields is an
 * error; a record with an empty token is skipped with a warning; a token given twice is warned about and its later
 * record wins, as in kube. Unlike kube, the file is bounded: at most {@link #MAX_BYTES} bytes and
 * {@link #MAX_TOKENS} tokens, so that a runaway file cannot fill the heap (the table is held twice while a
 * reload swaps it). No message here ever quotes the file's text: it is secret.
 */
final class TokenFile {

    private static final Logger LOG = Logger.getLogger(TokenFile.class);

    /** 4 MiB: some 30,000 tokens of 64 characters with a few groups each; kube sets no bound. */
    static final int MAX_BYTES = 4 * 1024 * 1024;
    static final int MAX_TOKENS = 100_000;

    /** A token file that cannot be used; the message names the file and the place, never its text. */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message);
        }
    }

    private TokenFile() {
    }

    /** The file's bytes, refusing one that is not a regular file or is larger than {@link #MAX_BYTES}. */
    static byte[] read(Path file) throws Unreadable {
        if (!Files.isRegularFile(file)) {
            throw new Unreadable("token file '" + file + "' " + (Files.exists(file) ? "is not a regular file"
                    : "does not exist"));
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] content = in.readNBytes(MAX_BYTES + 1);
            if (content.length > MAX_BYTES) {
                throw new Unreadable("token file '" + file + "' is larger than " + MAX_BYTES + " bytes");
            }
            return content;
        } catch (IOException e) {
            throw new Unreadable("token file '" + file + "' cannot be read: " + e);
        }
    }

    /** The table the file's {@code content} describes; {@code name} names it in messages. */
    static TokenTable parse(String name, byte[] content) throws Unreadable {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            throw new Unreadable("token file '" + name + "' is not UTF-8");
        }
        List<KubeCsv.Record> records;
        try {
            records = KubeCsv.read(text);
        } catch (KubeCsv.SyntaxError e) {
            throw new Unreadable("token file '" + name + "': " + e.getMessage());
        }
        Map<String, UserInfo> users = new HashMap<>();
        // names, uids and groups recur across records: one String each
        Map<String, String> canonical = new HashMap<>();
        int recordNumber = 0;
        for (KubeCsv.Record record : records) {
            List<String> fields = record.fields();
            if (fields.size() < 3) {
                throw new Unreadable("token file '" + name + "' must have at least 3 columns (token, user name, "
                        + "user uid), found " + fields.size() + " in the record on line " + record.line());
            }
            recordNumber++;
            String token = fields.get(0);
            if (token.isEmpty()) {
                LOG.warnf("empty token has been found in token file '%s', record number '%d' (line %d)", name,
                        recordNumber, record.line());
                continue;
            }
            String digest = CredentialDigest.of(token);
            if (users.containsKey(digest)) {
                LOG.warnf("duplicate token has been found in token file '%s', record number '%d' (line %d); the "
                        + "later record counts", name, recordNumber, record.line());
            } else if (users.size() == MAX_TOKENS) {
                throw new Unreadable("token file '" + name + "' has more than " + MAX_TOKENS + " tokens");
            }
            // kube splits the fourth field on commas as it is: "" is one empty group, "a,,b" three groups
            List<String> groups = fields.size() >= 4 ? Arrays.stream(fields.get(3).split(",", -1))
                    .map(group -> canonical.computeIfAbsent(group, g -> g)).toList() : List.of();
            users.put(digest, UserInfo.authenticated(canonical.computeIfAbsent(fields.get(1), n -> n),
                    canonical.computeIfAbsent(fields.get(2), u -> u), groups));
        }
        return new TokenTable(users);
    }
}
