package io.watchgate.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;

/**
 * HTTPS on the API port with the configured certificate: HTTP/2 through ALPN, and a renewed certificate served from
 * its files without a restart, while one that does not load leaves the last good one in use.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class HttpsTest {

    @TestHTTPResource(tls = true)
    URL https;

    @Inject
    CertificateReload reload;

    @Inject
    MeterRegistry meters;

    @Test
    void httpsSpeaksHttp2ThroughAlpn() throws Exception {
        HttpResponse<String> version = Https.to(https, null).send(Https.to(https, null).request("/version")
                .header("Authorization", "Bearer " + Users.ALICE.token()));
        assertEquals(200, version.statusCode(), version.body());
        assertEquals(HttpClient.Version.HTTP_2, version.version());
    }

    @Test
    void aRenewedCertificateIsServedToNewConnectionsAndABrokenOneIsNot() throws Exception {
        BigInteger before = servedSerial();
        byte[] cert = Files.readAllBytes(TestTls.CERT_FILE);
        byte[] key = Files.readAllBytes(TestTls.KEY_FILE);
        double failed = reloads("failed");
        try {
            TestPki.Issued renewed = TestTls.SERVER_CA.server("localhost", "127.0.0.1");
            renewed.writeCertificate(TestTls.CERT_FILE);
            renewed.writeKey(TestTls.KEY_FILE);
            reload.checkNow();
            assertEquals(renewed.certificate().getSerialNumber(), servedSerial());
            assertNotEquals(before, servedSerial());

            Files.writeString(TestTls.CERT_FILE, "-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n");
            reload.checkNow();
            assertEquals(failed + 1, reloads("failed"));
            assertEquals(renewed.certificate().getSerialNumber(), servedSerial(), "the last good one stays");
        } finally {
            Files.write(TestTls.CERT_FILE, cert);
            Files.write(TestTls.KEY_FILE, key);
            reload.checkNow();
        }
        assertEquals(before, servedSerial());
    }

    /** The serial number of the certificate a new connection is served. */
    private BigInteger servedSerial() throws Exception {
        Https client = Https.to(https, null); // a client of its own: a new connection, a new handshake
        HttpResponse<String> response = client.send(client.request("/version")
                .header("Authorization", "Bearer " + Users.ALICE.token()));
        X509Certificate served = (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
        return served.getSerialNumber();
    }

    private double reloads(String result) {
        return meters.get("watchgate.tls.reloads").tag("result", result).counter().count();
    }
}
