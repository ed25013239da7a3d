package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens verified lately are remembered for seconds, as kube-apiserver caches them, but never past their exp. */
class JwtTokenCacheTest {

    @TempDir
    Path dir;

    @Test
    void aRepeatedTokenIsAcceptedFromMemoryUntilItExpires() throws Exception {
        PublicJsonWebKey key = JwtIssuers.ecKey("k");
        Files.writeString(dir.resolve("keys.json"),
                new JsonWebKeySet(List.of(key)).toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
        Path config = dir.resolve("auth.yaml");
        Files.writeString(config, "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n"
                + "jwt:\n- issuer: {url: '" + JwtIssuers.ISSUER + "', audiences: [" + JwtIssuers.AUDIENCE + "], "
                + "jwksFile: keys.json}\n  claimMappings: {username: {claim: sub, prefix: ''}}\n");
        JwtTokens tokens = new JwtTokens(null, new DefaultJWTParser(), null);
        tokens.use(JwtTokens.issuersOf(config).values(), Runnable::run);

        // the first verification pays for loading and compiling the parser: not within the token's two seconds
        String warmUp = JwtIssuers.token(key, Map.of("exp", Instant.now().getEpochSecond() + 600));
        assertEquals("subject-1", tokens.authenticate(warmUp).orElseThrow().name());
        long exp = Instant.now().getEpochSecond() + 2;
        String token = JwtIssuers.token(key, Map.of("exp", exp));
        assertEquals("subject-1", tokens.authenticate(token).orElseThrow().name());
        assertEquals("subject-1", tokens.authenticate(token).orElseThrow().name(), "again, from memory");
        while (Instant.now().getEpochSecond() < exp + 1) {
            LockSupport.parkNanos(50_000_000L); // the token's exp is wall-clock time: wait for it to pass
        }
        assertTrue(tokens.authenticate(token).isEmpty(), "memory does not outlast exp");
    }
}
