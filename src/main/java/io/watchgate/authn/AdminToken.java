package io.watchgate.authn;

import io.watchgate.persistence.PrivateFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import org.jboss.logging.Logger;

/**
 * The bootstrap admin's bearer token, kept in the data directory as {@value #FILE_NAME} (mode 0600): generated on
 * first start (32 random bytes, base64url without padding), the same on every later start.
 */
final class AdminToken {

    private static final Logger LOG = Logger.getLogger(AdminToken.class);

    static final String FILE_NAME = "admin.token";
    /** A token is one line of printable ASCII; an operator may put one of their own there. */
    private static final int MAX_BYTES = 1024;
    private static final SecureRandom RANDOM = new SecureRandom();

    private AdminToken() {
    }

    /** The token in {@code dataDir}, generated and written there first if there is none. */
    static String loadOrCreate(Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE_NAME);
        if (Files.exists(file)) {
            if (PrivateFile.sharedWithOthers(file)) {
                LOG.warnf("%s is readable or writable by others than its owner: it holds the admin token; "
                        + "chmod 600 it", file);
            }
            return read(file);
        }
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        PrivateFile.write(file, (token + "\n").getBytes(StandardCharsets.US_ASCII));
        return token;
    }

    private static String read(Path file) throws IOException {
        byte[] content;
        try (InputStream in = Files.newInputStream(file)) {
            content = in.readNBytes(MAX_BYTES + 1);
        }
        String token = new String(content, StandardCharsets.US_ASCII).strip();
        boolean printable = token.chars().allMatch(c -> c > ' ' && c < 0x7f);
        if (content.length > MAX_BYTES || token.isEmpty() || !printable) {
            throw new IOException(file + " does not hold a token (one line of printable ASCII, at most " + MAX_BYTES
                    + " bytes): delete it, and a new token is generated at the next start");
        }
        return token;
    }
}
