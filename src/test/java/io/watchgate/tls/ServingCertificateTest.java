package io.watchgate.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.tls.runtime.KeyStoreAndKeyCertOptions;
import io.vertx.core.Vertx;
import io.watchgate.persistence.DurableSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.security.PrivateKey;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.util.io.pem.PemObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which certificate HTTPS serves, from which files, and the key encodings cert-manager and openssl write. */
class ServingCertificateTest {

    static Vertx vertx;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    private TlsSettings files(Path cert, Path key) {
        return new TlsSettings(Optional.ofNullable(cert), Optional.ofNullable(key), Optional.empty(),
                Duration.ofMinutes(1), true, Optional.empty());
    }

    private DurableSettings durable() {
        return new DurableSettings(dir.resolve("data").toString(), true, 1 << 20, 1 << 20);
    }

    @Test
    void theKeyEncodingsCertManagerAndOpensslWriteAllLoad() throws Exception {
        TestPki.Issued ca = TestPki.ca("ca");
        for (String algorithm : List.of("RSA", "EC")) {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            KeyPair keys = generator.generateKeyPair();
            X509Certificate certificate = ca.serverFor(keys, "localhost").certificate();
            // PKCS #1 ("RSA PRIVATE KEY") and SEC 1 ("EC PRIVATE KEY"): cert-manager's default encoding
            Path cert = dir.resolve(algorithm + ".crt");
            Path key = dir.resolve(algorithm + ".key");
            Files.writeString(cert, pem(certificate));
            Files.writeString(key, algorithm.equals("EC") ? sec1(keys.getPrivate()) : pkcs1(keys.getPrivate()));
            assertTrue(Files.readString(key).startsWith("-----BEGIN " + algorithm + " PRIVATE KEY-----"),
                    Files.readString(key));
            assertServes(new ServingCertificate(files(cert, key), durable()).getKeyStore(vertx), certificate);
        }
    }

    @Test
    void aFileHoldingTheCertificateAndItsKeyTogetherServesAsBoth() throws Exception {
        TestPki.Issued serving = TestPki.ca("ca").server("localhost");
        // the key first, then the certificate, in one file: openssl and Vert.x read each part from it
        Path both = dir.resolve("tls.pem");
        Files.writeString(both, sec1(serving.keys().getPrivate()) + pem(serving.certificate()));
        assertServes(new ServingCertificate(files(both, both), durable()).getKeyStore(vertx), serving.certificate());
    }

    /** The key store HTTPS is given holds {@code certificate}, with its key. */
    private static void assertServes(KeyStoreAndKeyCertOptions served, X509Certificate certificate)
            throws Exception {
        KeyStore store = served.keyStore;
        String alias = Collections.list(store.aliases()).get(0);
        assertEquals(certificate, store.getCertificate(alias));
        assertTrue(store.isKeyEntry(alias), "the key is served with it");
    }

    @Test
    void configuredFilesComeBeforeTheBootstrapAndNothingIsWrittenThen() throws Exception {
        TestPki.Issued serving = TestPki.ca("ca").server("localhost");
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        serving.writeCertificate(cert);
        serving.writeKey(key);
        ServingCertificate tls = new ServingCertificate(files(cert, key), durable());
        assertTrue(tls.serving());
        assertEquals(Optional.empty(), tls.bootstrapAuthority(), "the kubeconfig trusts the system's CAs then");
        assertFalse(Files.exists(dir.resolve("data")));
    }

    @Test
    void aCertificateWithoutItsKeyStopsTheStartSayingWhich() {
        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> new ServingCertificate(files(dir.resolve("tls.crt"), null), durable()));
        assertTrue(error.getMessage().contains("watchgate.tls.key-file"), error.getMessage());
    }

    @Test
    void anUnreadableKeyStopsTheStartNamingTheFiles() throws Exception {
        TestPki.Issued serving = TestPki.ca("ca").server("localhost");
        Path cert = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        serving.writeCertificate(cert);
        Files.writeString(key, "not a key\n");
        IllegalStateException error = assertThrows(IllegalStateException.class,
                () -> new ServingCertificate(files(cert, key), durable()).getKeyStore(vertx));
        assertTrue(error.getMessage().contains(key.toString()), error.getMessage());
    }

    @Test
    void aMissingDataDirectoryStopsTheStartAsTheStoreWould() {
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> new ServingCertificate(
                files(null, null), new DurableSettings(dir.resolve("missing").toString(), false, 1 << 20, 1 << 20)));
        assertTrue(error.getMessage().contains("watchgate.storage.create-data-dir=true"), error.getMessage());
    }

    @Test
    void withTheBootstrapOffThereIsNoHttps() throws Exception {
        TlsSettings off = TlsSettings.off();
        ServingCertificate tls = new ServingCertificate(off, durable());
        assertFalse(tls.serving());
        assertEquals(null, tls.getKeyStore(vertx));
        assertFalse(Files.exists(dir.resolve("data")));
    }

    /** PKCS #1, as openssl's traditional form and cert-manager write an RSA key. */
    private static String pkcs1(PrivateKey key) throws Exception {
        return pem(new PemObject("RSA PRIVATE KEY", PrivateKeyInfo.getInstance(key.getEncoded()).parsePrivateKey()
                .toASN1Primitive().getEncoded()));
    }

    /** SEC 1 as openssl and cert-manager write it, with the curve named inside. */
    private static String sec1(PrivateKey key) throws Exception {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
        ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
        ECPrivateKey withCurve = new ECPrivateKey(((java.security.interfaces.ECPrivateKey) key).getParams().getOrder()
                .bitLength(), inner.getKey(), info.getPrivateKeyAlgorithm().getParameters());
        return pem(new PemObject("EC PRIVATE KEY", withCurve.getEncoded()));
    }

    private static String pem(Object object) throws Exception {
        return new String(Pem.encode(object), java.nio.charset.StandardCharsets.US_ASCII);
    }
}
