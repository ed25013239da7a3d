package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.persistence.Durable;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import io.quarkus.test.common.http.TestHTTPResource;
import io.watchgate.tls.TestPki;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * The packaged defaults in durable mode: the admin kubeconfig names the HTTPS port the server listens on, trusts the
 * bootstrap CA, and works.
 */
@QuarkusTest
@TestProfile(Durable.class)
class BootstrapAdminAppTest {

    private static final Path DATA = Durable.DATA;

    @Inject
    StaticTokens tokens;

    @TestHTTPResource(tls = true)
    URL https;

    @Test
    void theKubeconfigIsWrittenOnceTheServerListensAndItsTokenIsTheAdmins() throws Exception {
        Path kubeconfig = DATA.resolve("admin.kubeconfig");
        long deadline = System.nanoTime() + 10_000_000_000L; // written by an asynchronous observer
        while (!Files.exists(kubeconfig) && System.nanoTime() < deadline) {
            Thread.sleep(20); // polled until the deadline: the check itself decides
        }
        JsonNode config = new ObjectMapper(new YAMLFactory()).readTree(kubeconfig.toFile());
        assertEquals("https://127.0.0.1:" + https.getPort(), config.at("/clusters/0/cluster/server").asText());
        UserInfo admin = tokens.authenticate(config.at("/users/0/user/token").asText()).orElseThrow();
        assertEquals("system:admin", admin.name());
        assertTrue(admin.isMaster());
        assertEquals(Files.readString(DATA.resolve("admin.token")).strip(),
                config.at("/users/0/user/token").asText());

        // as kubectl uses it: the server's certificate checked against the CA in it, the token sent
        X509Certificate ca = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
                new ByteArrayInputStream(Base64.getDecoder().decode(
                        config.at("/clusters/0/cluster/certificate-authority-data").asText())));
        HttpClient client = HttpClient.newBuilder().sslContext(TestPki.context(ca, null)).build();
        HttpResponse<String> namespaces = client.send(HttpRequest.newBuilder(URI.create(
                config.at("/clusters/0/cluster/server").asText() + "/api/v1/namespaces"))
                .header("Authorization", "Bearer " + config.at("/users/0/user/token").asText()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, namespaces.statusCode(), namespaces.body());
    }
}
