package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The packaged defaults in durable mode: the admin kubeconfig names the port the server listens on, and works. */
@QuarkusTest
@TestProfile(BootstrapAdminAppTest.Durable.class)
class BootstrapAdminAppTest {

    private static final Path DATA = tempDir();

    public static class Durable implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("watchgate.storage.mode", "durable", "watchgate.storage.data-dir", DATA.toString(),
                    "watchgate.auth.bootstrap-admin", "true");
        }
    }

    @Inject
    StaticTokens tokens;

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @Test
    void theKubeconfigIsWrittenOnceTheServerListensAndItsTokenIsTheAdmins() throws Exception {
        Path kubeconfig = DATA.resolve("admin.kubeconfig");
        long deadline = System.nanoTime() + 10_000_000_000L; // written by an asynchronous observer
        while (!Files.exists(kubeconfig) && System.nanoTime() < deadline) {
            Thread.sleep(20); // polled until the deadline: the check itself decides
        }
        JsonNode config = new ObjectMapper(new YAMLFactory()).readTree(kubeconfig.toFile());
        assertEquals("http://127.0.0.1:" + port, config.at("/clusters/0/cluster/server").asText());
        UserInfo admin = tokens.authenticate(config.at("/users/0/user/token").asText()).orElseThrow();
        assertEquals("system:admin", admin.name());
        assertTrue(admin.isMaster());
        assertEquals(Files.readString(DATA.resolve("admin.token")).strip(),
                config.at("/users/0/user/token").asText());
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("wg-bootstrap");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
