package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.watchgate.persistence.DurableSettings;
import io.watchgate.persistence.StorageConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import io.watchgate.tls.ServingCertificate;
import io.watchgate.tls.TlsSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A durable server without a token file gets an admin token and a kubeconfig that uses it, in its data dir. */
class AdminBootstrapTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path dir;

    private StorageConfig durable() {
        return new DurableSettings(dir.toString(), false, 1 << 20, 1 << 20);
    }

    /** HTTPS off: the kubeconfig names the plain HTTP port. */
    private ServingCertificate plain() {
        return new ServingCertificate(TlsSettings.off(), durable());
    }

    private static String mode(Path file) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    @Test
    void firstStartGeneratesAnOwnerOnlyTokenThatLaterStartsReuse() throws Exception {
        String token = new AdminBootstrap(AuthSettings.defaults(), durable(), null, plain()).token().orElseThrow();

        Path file = dir.resolve("admin.token");
        assertEquals("rw-------", mode(file));
        assertEquals(token + "\n", Files.readString(file));
        assertEquals(32, Base64.getUrlDecoder().decode(token).length);
        assertFalse(token.contains("=") || token.contains("+") || token.contains("/"), token);
        assertFalse(Files.exists(dir.resolve("admin.token.tmp")));

        assertEquals(Optional.of(token), new AdminBootstrap(AuthSettings.defaults(), durable(), null, plain()).token());
        assertFalse(token.equals(AdminToken.loadOrCreate(Files.createDirectory(dir.resolve("other")))),
                "each data directory has a token of its own");
    }

    @Test
    void theKubeconfigPointsKubectlAtTheServerWithTheTokenStaticTokensRecognize() throws Exception {
        AdminBootstrap bootstrap = new AdminBootstrap(AuthSettings.defaults(), durable(), null, plain());
        Path file = bootstrap.writeKubeconfig(AdminBootstrap.serverUrl("http", "0.0.0.0", 41234));

        assertEquals(dir.resolve("admin.kubeconfig"), file);
        assertEquals("rw-------", mode(file));
        JsonNode config = YAML.readTree(file.toFile());
        assertEquals("Config", config.path("kind").asText());
        assertEquals("watchgate", config.path("current-context").asText());
        assertEquals("watchgate", config.at("/contexts/0/name").asText());
        assertEquals("watchgate", config.at("/contexts/0/context/cluster").asText());
        assertEquals("admin", config.at("/contexts/0/context/user").asText());
        assertEquals("watchgate", config.at("/clusters/0/name").asText());
        assertEquals("http://127.0.0.1:41234", config.at("/clusters/0/cluster/server").asText());
        assertEquals("admin", config.at("/users/0/name").asText());
        String token = config.at("/users/0/user/token").asText();

        StaticTokens tokens = new StaticTokens(AuthSettings.defaults(), bootstrap, null, new SimpleMeterRegistry());
        tokens.start(null);
        UserInfo admin = tokens.authenticate(token).orElseThrow();
        assertEquals("system:admin", admin.name());
        assertEquals(List.of(UserInfo.MASTERS, UserInfo.AUTHENTICATED), admin.groups());
        assertTrue(admin.isMaster());
        assertEquals(Optional.empty(), tokens.authenticate(token.substring(1)));

        // a restart on another port rewrites it, with the same token
        bootstrap.writeKubeconfig(AdminBootstrap.serverUrl("http", "0.0.0.0", 41235));
        JsonNode again = YAML.readTree(file.toFile());
        assertEquals("http://127.0.0.1:41235", again.at("/clusters/0/cluster/server").asText());
        assertEquals(token, again.at("/users/0/user/token").asText());
    }

    @Test
    void withTheBootstrapCertificateTheKubeconfigNamesTheHttpsPortAndTrustsItsCa() throws Exception {
        ServingCertificate tls = new ServingCertificate(TlsSettings.defaults(), durable());
        AdminBootstrap bootstrap = new AdminBootstrap(AuthSettings.defaults(), durable(), null, tls);
        Path file = bootstrap.writeKubeconfig(AdminBootstrap.serverUrl("https", "0.0.0.0", 41236));

        JsonNode config = YAML.readTree(file.toFile());
        assertEquals("https://127.0.0.1:41236", config.at("/clusters/0/cluster/server").asText());
        assertEquals(Files.readString(dir.resolve("tls/ca.crt")), new String(Base64.getDecoder().decode(
                config.at("/clusters/0/cluster/certificate-authority-data").asText()), StandardCharsets.US_ASCII));
    }

    @Test
    void nothingIsWrittenInMemoryModeWithATokenFileOrWhenSwitchedOff() throws Exception {
        StorageConfig memory = memoryMode();
        assertEquals(Optional.empty(), new AdminBootstrap(AuthSettings.defaults(), memory, null, plain()).token());
        assertEquals(Optional.empty(), new AdminBootstrap(AuthSettings.defaults().withTokenFile(dir.resolve("t")),
                durable(), null, plain()).token());
        AuthSettings off = new AuthSettings(false, AuthConfig.AuthorizationMode.RBAC, Optional.empty(),
                java.time.Duration.ofSeconds(5), false);
        assertEquals(Optional.empty(), new AdminBootstrap(off, durable(), null, plain()).token());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList());
        }
    }

    @Test
    void aDamagedTokenFileStopsTheStartSayingWhatToDo() throws Exception {
        Files.write(dir.resolve("admin.token"), "\n\n".getBytes(StandardCharsets.US_ASCII));
        RuntimeException error = assertThrows(RuntimeException.class,
                () -> new AdminBootstrap(AuthSettings.defaults(), durable(), null, plain()).token());
        assertTrue(error.getMessage().contains("delete it"), error.getMessage());
    }

    @Test
    void anOperatorsOwnTokenIsUsedAsItIs() throws Exception {
        Files.writeString(dir.resolve("admin.token"), "my-own-admin-token\r\n");
        assertEquals(Optional.of("my-own-admin-token"),
                new AdminBootstrap(AuthSettings.defaults(), durable(), null, plain()).token());
    }

    @Test
    void aLoopbackUrlForEveryAddressAndBracketsForIpv6() {
        assertEquals("http://127.0.0.1:8080", AdminBootstrap.serverUrl("http", "0.0.0.0", 8080));
        assertEquals("http://127.0.0.1:8080", AdminBootstrap.serverUrl("http", "::", 8080));
        assertEquals("http://10.1.2.3:8080", AdminBootstrap.serverUrl("http", "10.1.2.3", 8080));
        assertEquals("http://[::1]:8080", AdminBootstrap.serverUrl("http", "::1", 8080));
        assertEquals("http://127.0.0.1:8080", AdminBootstrap.serverUrl("http", "localhost", 8080));
    }

    private StorageConfig memoryMode() {
        return new StorageConfig() {
            @Override
            public Mode mode() {
                return Mode.MEMORY;
            }

            @Override
            public String dataDir() {
                return dir.toString();
            }

            @Override
            public boolean createDataDir() {
                return false;
            }

            @Override
            public long segmentBytes() {
                return 1 << 20;
            }

            @Override
            public long snapshotAfterBytes() {
                return 1 << 20;
            }
        };
    }
}
