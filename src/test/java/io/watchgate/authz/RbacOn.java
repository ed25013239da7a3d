package io.watchgate.authz;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import io.watchgate.authn.JwtIssuers;
import io.watchgate.tls.TestTls;
import java.util.HashMap;
import java.util.Map;

/**
 * The server as it runs in production: no anonymous requests, RBAC, users from a token file (see {@link Users}) and
 * JWTs of two OIDC issuers ({@link JwtIssuers}), HTTPS with client certificates ({@link TestTls}) beside plain HTTP,
 * and an audit log ({@link #AUDIT_LOG}).
 * Every test of identity and access shares this profile, so the server starts once for them all.
 */
public class RbacOn implements QuarkusTestProfile {

    /** The token file of {@link Users}; a test that rewrites it puts it back as it was. */
    public static final Path TOKEN_FILE = tokenFile();
    /** The audit log of every request the tests of this profile send. */
    public static final Path AUDIT_LOG = auditLog();

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(TestTls.config());
        config.putAll(Map.of("watchgate.auth.anonymous", "false",
                "watchgate.auth.authorization-mode", "RBAC",
                "watchgate.auth.token-file", TOKEN_FILE.toString(),
                // a rewritten token file is taken up within a tenth of a second (5 s by default)
                "watchgate.auth.token-file-check-interval", "100ms",
                "watchgate.audit.enabled", "true",
                "watchgate.audit.log-path", AUDIT_LOG.toString(),
                "watchgate.auth.authentication-config", JwtIssuers.CONFIG.toString()));
        return config;
    }

    private static Path auditLog() {
        try {
            Path file = Files.createTempFile("watchgate-audit-", ".log");
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path tokenFile() {
        try {
            Path file = Files.createTempFile("watchgate-tokens-", ".csv");
            Files.writeString(file, Users.tokenFileLines());
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
