package io.watchgate.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The k3s-style certificates of a new durable server: made once, kept, and renewed by the same CA. */
class BootstrapCertificatesTest {

    private static final List<String> NAMES = BootstrapCertificates.namesWith(List.of());

    @TempDir
    Path data;

    @Test
    void aCaAndAServingCertificateItSignsForTheLoopbacksWithOwnerOnlyKeys() throws Exception {
        CertificateFiles files = BootstrapCertificates.ensure(data, NAMES, Instant.now());
        X509Certificate ca = certificate(files.authority().orElseThrow());
        X509Certificate serving = certificate(files.cert());

        serving.verify(ca.getPublicKey());
        assertEquals(-1, serving.getBasicConstraints(), "not a CA");
        assertTrue(ca.getBasicConstraints() >= 0, "a CA");
        assertEquals(List.of("1.3.6.1.5.5.7.3.1"), serving.getExtendedKeyUsage(), "serverAuth");
        assertEquals(List.of("localhost", "127.0.0.1", "0:0:0:0:0:0:0:1"), serving.getSubjectAlternativeNames()
                .stream().map(name -> String.valueOf(name.get(1))).toList());
        for (String key : List.of("ca.key", "serving.key")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    data.resolve("tls").resolve(key))));
        }
    }

    @Test
    void laterStartsServeTheSameCertificates() throws Exception {
        CertificateFiles first = BootstrapCertificates.ensure(data, NAMES, Instant.now());
        byte[] cert = Files.readAllBytes(first.cert());
        byte[] ca = Files.readAllBytes(first.authority().orElseThrow());
        CertificateFiles again = BootstrapCertificates.ensure(data, NAMES, Instant.now().plus(Duration.ofDays(100)));
        assertArrayEquals(cert, Files.readAllBytes(again.cert()));
        assertArrayEquals(ca, Files.readAllBytes(again.authority().orElseThrow()));
    }

    @Test
    void nearItsEndTheServingCertificateIsIssuedAgainByTheSameCa() throws Exception {
        Instant now = Instant.now();
        CertificateFiles first = BootstrapCertificates.ensure(data, NAMES, now);
        X509Certificate old = certificate(first.cert());
        byte[] ca = Files.readAllBytes(first.authority().orElseThrow());

        CertificateFiles renewed = BootstrapCertificates.ensure(data, NAMES, now.plus(Duration.ofDays(300)));
        X509Certificate fresh = certificate(renewed.cert());
        assertNotEquals(old.getSerialNumber(), fresh.getSerialNumber());
        assertTrue(fresh.getNotAfter().after(old.getNotAfter()));
        assertArrayEquals(ca, Files.readAllBytes(renewed.authority().orElseThrow()), "the kubeconfig's CA stays");
        fresh.verify(certificate(renewed.authority().orElseThrow()).getPublicKey());
    }

    @Test
    void aNameTheCertificateLacksHasItIssuedAgain() throws Exception {
        CertificateFiles first = BootstrapCertificates.ensure(data, NAMES, Instant.now());
        X509Certificate old = certificate(first.cert());
        List<String> more = BootstrapCertificates.namesWith(List.of("watchgate.example", "10.0.0.7"));
        X509Certificate fresh = certificate(BootstrapCertificates.ensure(data, more, Instant.now()).cert());
        assertNotEquals(old.getSerialNumber(), fresh.getSerialNumber());
        List<String> names = fresh.getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1)))
                .toList();
        assertTrue(names.containsAll(List.of("watchgate.example", "10.0.0.7", "localhost")), names.toString());
        assertFalse(Files.exists(data.resolve("tls/serving.crt.tmp")));
    }

    @Test
    void aKeyThatDoesNotPairWithItsCertificateHasBothMadeAgain() throws Exception {
        CertificateFiles first = BootstrapCertificates.ensure(data, NAMES, Instant.now());
        X509Certificate old = certificate(first.cert());
        // as a crash between writing the new key and the new certificate would leave them
        TestPki.Issued stranger = TestPki.ca("stranger");
        stranger.writeKey(first.key());
        CertificateFiles again = BootstrapCertificates.ensure(data, NAMES, Instant.now());
        X509Certificate fresh = certificate(again.cert());
        assertNotEquals(old.getSerialNumber(), fresh.getSerialNumber());
        assertFalse(fresh.getPublicKey().equals(stranger.certificate().getPublicKey()));
        java.security.Signature signer = java.security.Signature.getInstance("SHA256withECDSA");
        signer.initSign(Pem.privateKey(Files.readAllBytes(again.key())));
        signer.update(new byte[] {1, 2, 3});
        java.security.Signature verifier = java.security.Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(fresh.getPublicKey());
        verifier.update(new byte[] {1, 2, 3});
        assertTrue(verifier.verify(signer.sign()), "the new key and certificate pair");
    }

    private static X509Certificate certificate(Path file) throws Exception {
        return Pem.certificates(Files.readAllBytes(file)).get(0);
    }
}
