package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kube's AuthenticationConfiguration as watchgate reads it: what it takes, and a clear error for what it does not. */
class AuthenticationConfigTest {

    @TempDir
    Path dir;

    private Path config(String... jwtLines) throws Exception {
        Path file = dir.resolve("auth.yaml");
        Files.writeString(file, "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n"
                + "jwt:\n" + String.join("\n", jwtLines) + "\n");
        return file;
    }

    @Test
    void anIssuerItsAudiencesKeysAndClaimMappings() throws Exception {
        Map<String, JwtIssuer> issuers = JwtTokens.issuersOf(config(
                "- issuer: {url: 'https://a.test', audiences: [x, y], jwksFile: keys.json}",
                "  claimValidationRules: [{claim: hd, requiredValue: example.com}]",
                "  claimMappings: {username: {claim: sub, prefix: ''}, groups: {claim: groups, prefix: 'a:'}}"));
        JwtIssuer issuer = issuers.get("https://a.test");
        assertEquals(List.of("x", "y"), issuer.audiences());
        assertEquals(Optional.of(dir.resolve("keys.json")), issuer.jwksFile(), "relative to the configuration file");
        assertEquals("sub", issuer.usernameClaim());
        assertEquals("", issuer.usernamePrefix());
        assertEquals(Optional.of("groups"), issuer.groupsClaim());
        assertEquals("a:", issuer.groupsPrefix());
        assertEquals(Map.of("hd", "example.com"), issuer.requiredClaims());
    }

    @Test
    void whatKubeRequiresIsRequiredHereNamingTheField() throws Exception {
        assertError("jwt[0].claimMappings.username.prefix", config(
                "- issuer: {url: 'https://a.test', audiences: [x], jwksFile: k.json}",
                "  claimMappings: {username: {claim: sub}}"));
        assertError("jwt[0].issuer.url: must use the https scheme", config(
                "- issuer: {url: 'http://a.test', audiences: [x], jwksFile: k.json}",
                "  claimMappings: {username: {claim: sub, prefix: ''}}"));
        assertError("jwt[0].issuer.audiences", config(
                "- issuer: {url: 'https://a.test', jwksFile: k.json}",
                "  claimMappings: {username: {claim: sub, prefix: ''}}"));
        assertError("jwt[0].issuer.discoveryURL: must differ from url", config(
                "- issuer: {url: 'https://a.test', discoveryURL: 'https://a.test', audiences: [x]}",
                "  claimMappings: {username: {claim: sub, prefix: ''}}"));
        assertError("jwt[0].issuer: certificateAuthority is for discovery", config(
                "- issuer: {url: 'https://a.test', audiences: [x], jwksFile: k.json, certificateAuthority: x}",
                "  claimMappings: {username: {claim: sub, prefix: ''}}"));
        assertError("CEL expressions are not", config(
                "- issuer: {url: 'https://a.test', audiences: [x], jwksFile: k.json}",
                "  claimValidationRules: [{expression: 'claims.hd == \"x\"'}]",
                "  claimMappings: {username: {claim: sub, prefix: ''}}"));
    }

    private static void assertError(String expected, Path file) {
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> JwtTokens.issuersOf(file));
        assertTrue(error.getMessage().contains(expected), error.getMessage());
    }
}
