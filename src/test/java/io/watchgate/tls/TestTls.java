package io.watchgate.tls;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The certificates of the production-like test server ({@code RbacOn}): a serving certificate for localhost from one
 * CA, and another CA for client certificates, in files made once per test run.
 */
public final class TestTls {

    public static final TestPki.Issued SERVER_CA;
    public static final TestPki.Issued CLIENT_CA;
    public static final Path CERT_FILE;
    public static final Path KEY_FILE;
    public static final Path CLIENT_CA_FILE;
    /** The serving certificate's CA, for clients that read it from a file (fabric8's caCertFile, kubectl's). */
    public static final Path SERVER_CA_FILE;

    static {
        try {
            Path dir = Files.createTempDirectory("watchgate-tls-");
            dir.toFile().deleteOnExit();
            SERVER_CA = TestPki.ca("watchgate-test-server-ca");
            CLIENT_CA = TestPki.ca("watchgate-test-client-ca");
            CERT_FILE = dir.resolve("tls.crt");
            KEY_FILE = dir.resolve("tls.key");
            CLIENT_CA_FILE = dir.resolve("client-ca.crt");
            SERVER_CA_FILE = dir.resolve("server-ca.crt");
            SERVER_CA.writeCertificate(SERVER_CA_FILE);
            TestPki.Issued serving = SERVER_CA.server("localhost", "127.0.0.1");
            serving.writeCertificate(CERT_FILE);
            serving.writeKey(KEY_FILE);
            CLIENT_CA.writeCertificate(CLIENT_CA_FILE);
            for (Path file : new Path[] {CERT_FILE, KEY_FILE, CLIENT_CA_FILE, SERVER_CA_FILE}) {
                file.toFile().deleteOnExit();
            }
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private TestTls() {
    }

    /** HTTPS on a random port with these files; plain HTTP goes on, for the tests that use it. */
    public static Map<String, String> config() {
        return Map.of("watchgate.tls.cert-file", CERT_FILE.toString(),
                "watchgate.tls.key-file", KEY_FILE.toString(),
                "watchgate.tls.client-ca-file", CLIENT_CA_FILE.toString(),
                "quarkus.http.test-ssl-port", "0");
    }
}
