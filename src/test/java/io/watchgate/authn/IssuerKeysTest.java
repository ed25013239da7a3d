package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where an issuer's keys come from, and how they are kept current when the issuer changes them. */
class IssuerKeysTest {

    @TempDir
    Path dir;

    @Test
    void aChangedJwksFileIsReadAgainAndABrokenOneKeepsTheLastKeys() throws Exception {
        Path keysFile = dir.resolve("keys.json");
        write(keysFile, "a");
        Path config = dir.resolve("auth.yaml");
        Files.writeString(config, "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n"
                + "jwt:\n- issuer: {url: 'https://a.test', audiences: [x], jwksFile: keys.json}\n"
                + "  claimMappings: {username: {claim: sub, prefix: ''}}\n");
        IssuerKeys keys = new IssuerKeys(JwtTokens.issuersOf(config).get("https://a.test"), Runnable::run);
        keys.start();
        assertEquals(Set.of("a"), keys.current().orElseThrow().ids());

        write(keysFile, "rotated");
        keys.check();
        assertEquals(Set.of("rotated"), keys.current().orElseThrow().ids());

        Files.writeString(keysFile, "{\"keys\": \"not a key set, and longer than the last file\"}");
        keys.check();
        assertEquals(Set.of("rotated"), keys.current().orElseThrow().ids(), "the last good keys stay");
    }

    @Test
    void aTokenIsVerifiedWithTheKeyItNamesOrWithoutANameWithEachSigningKey() throws Exception {
        JsonWebKey encryption = JwtIssuers.ecKey("for-encryption");
        encryption.setUse("enc");
        String jwks = new JsonWebKeySet(List.of(JwtIssuers.key("a"), JwtIssuers.ecKey("b"), encryption))
                .toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY);
        Path config = dir.resolve("auth.yaml");
        Files.writeString(config, "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n"
                + "jwt:\n- issuer: {url: 'https://a.test', audiences: [x], jwksFile: keys.json}\n"
                + "  claimMappings: {username: {claim: sub, prefix: ''}}\n");
        IssuerKeys.Keys keys = IssuerKeys.parse(JwtTokens.issuersOf(config).get("https://a.test"), jwks);
        assertEquals(Set.of("a", "b"), keys.ids(), "a key for encryption verifies nothing");
        assertEquals(1, keys.forKeyId("b").size());
        assertEquals(2, keys.forKeyId(null).size());
        assertTrue(keys.forKeyId("c").isEmpty());
    }

    @Test
    void theDiscoveryDocumentMustNameTheConfiguredIssuerAndAnHttpsKeySet() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertEquals("https://a.test/keys", IssuerDiscovery.jwksUri(json.readTree(
                "{\"issuer\":\"https://a.test\",\"jwks_uri\":\"https://a.test/keys\"}"), "https://a.test"));
        IOException other = assertThrows(IOException.class, () -> IssuerDiscovery.jwksUri(json.readTree(
                "{\"issuer\":\"https://b.test\",\"jwks_uri\":\"https://b.test/keys\"}"), "https://a.test"));
        assertTrue(other.getMessage().contains("names the issuer \"https://b.test\""), other.getMessage());
        IOException plain = assertThrows(IOException.class, () -> IssuerDiscovery.jwksUri(json.readTree(
                "{\"issuer\":\"https://a.test\",\"jwks_uri\":\"http://a.test/keys\"}"), "https://a.test"));
        assertTrue(plain.getMessage().contains("must be an https URL"), plain.getMessage());
    }

    @Test
    void aCertificateAuthorityThatIsNoCertificateIsRefusedNamingTheField() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> IssuerDiscovery.trusting("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n"
                        + "-----END CERTIFICATE-----\n"));
        assertTrue(error.getMessage().startsWith("issuer.certificateAuthority: "), error.getMessage());
    }

    private static void write(Path file, String keyId) throws Exception {
        JsonWebKey key = JwtIssuers.ecKey(keyId);
        Files.writeString(file, new JsonWebKeySet(List.of(key)).toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
    }
}
