package io.watchgate.tls;

import io.watchgate.persistence.PrivateFile;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.cert.X509CertificateHolder;

/**
 * The certificates of a new durable server, as k3s makes its own: a CA ({@value #CA_CERT}, ten years) and a serving
 * certificate it signs ({@value #SERVING_CERT}, one year, for localhost, the loopback addresses and the configured
 * names), ECDSA P-256, in the data directory's {@code tls/} with the keys 0600. Kept across starts; the serving
 * certificate is issued again by the same CA when it has less than 90 days left, lacks a configured name, or does not
 * pair with its key, so the CA a kubeconfig trusts stays the same. Called at start and at each
 * {@link CertificateReload}, so that a server running for a year renews its certificate too.
 */
final class BootstrapCertificates {

    static final String DIRECTORY = "tls";
    static final String CA_CERT = "ca.crt";
    static final String CA_KEY = "ca.key";
    static final String SERVING_CERT = "serving.crt";
    static final String SERVING_KEY = "serving.key";

    static final List<String> ALWAYS = List.of("localhost", "127.0.0.1", "::1");

    private static final Duration CA_LIFETIME = Duration.ofDays(3650);
    private static final Duration SERVING_LIFETIME = Duration.ofDays(365);
    private static final Duration RENEW_BEFORE = Duration.ofDays(90);
    private static final Duration CLOCK_SKEW = Duration.ofHours(1);
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final SecureRandom RANDOM = new SecureRandom();

    private BootstrapCertificates() {
    }

    /** The certificate files in {@code dataDir/tls}, made or renewed as needed. */
    static CertificateFiles ensure(Path dataDir, List<String> names, Instant now) throws IOException {
        Path directory = dataDir.resolve(DIRECTORY);
        Files.createDirectories(directory);
        Path caCert = directory.resolve(CA_CERT);
        Path caKey = directory.resolve(CA_KEY);
        Path servingCert = directory.resolve(SERVING_CERT);
        Path servingKey = directory.resolve(SERVING_KEY);
        try {
            if (!pairs(caCert, caKey, "the bootstrap CA")) {
                KeyPair ca = newKeyPair();
                X509Certificate caCertificate = caCertificate(ca, now);
                PrivateFile.write(caKey, Pem.encode(ca.getPrivate()));
                PrivateFile.write(caCert, Pem.encode(caCertificate));
                Files.deleteIfExists(servingCert); // signed by a CA that is gone
            }
            X509Certificate caCertificate = Pem.certificates(Pem.read(caCert, "the bootstrap CA")).get(0);
            if (!pairs(servingCert, servingKey, "the bootstrap certificate")
                    || needsRenewal(Pem.certificates(Pem.read(servingCert, "the bootstrap certificate")).get(0),
                            caCertificate, names, now)) {
                PrivateKey signingKey = Pem.privateKey(Pem.read(caKey, "the bootstrap CA key"));
                KeyPair serving = newKeyPair();
                PrivateFile.write(servingKey, Pem.encode(serving.getPrivate()));
                PrivateFile.write(servingCert, Pem.encode(servingCertificate(serving, caCertificate, signingKey, names, now)));
            }
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("the bootstrap certificates in " + directory + " cannot be made: " + e.getMessage(),
                    e);
        }
        return new CertificateFiles(servingCert, servingKey, caCert);
    }

    /** Every name the serving certificate is for: the loopbacks, then the configured ones. */
    static List<String> namesWith(List<String> configured) {
        return java.util.stream.Stream.concat(ALWAYS.stream(), configured.stream()).map(String::strip)
                .filter(name -> !name.isEmpty()).distinct().toList();
    }

    /**
     * Whether the certificate and key files are there and belong together: a crash between writing one and the other
     * must not leave a pair that fails every handshake.
     */
    private static boolean pairs(Path cert, Path key, String what) throws IOException, GeneralSecurityException {
        if (!Files.exists(cert) || !Files.exists(key)) {
            return false;
        }
        X509Certificate certificate = Pem.certificates(Pem.read(cert, what)).get(0);
        PrivateKey privateKey = Pem.privateKey(Pem.read(key, what + " key"));
        byte[] challenge = new byte[32];
        RANDOM.nextBytes(challenge);
        Signature signer = Signature.getInstance(SIGNATURE);
        signer.initSign(privateKey);
        signer.update(challenge);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(SIGNATURE);
        verifier.initVerify(certificate.getPublicKey());
        verifier.update(challenge);
        return verifier.verify(signature);
    }

    private static boolean needsRenewal(X509Certificate serving, X509Certificate ca, List<String> names, Instant now)
            throws GeneralSecurityException {
        if (serving.getNotAfter().toInstant().isBefore(now.plus(RENEW_BEFORE))) {
            return true;
        }
        try {
            serving.verify(ca.getPublicKey());
        } catch (GeneralSecurityException e) {
            return true; // signed by another CA than the one a kubeconfig trusts
        }
        List<String> covered = serving.getSubjectAlternativeNames() == null ? List.of()
                : serving.getSubjectAlternativeNames().stream().map(entry -> String.valueOf(entry.get(1)))
                        .map(SubjectNames::canonical).toList();
        return !names.stream().map(SubjectNames::canonical).allMatch(covered::contains);
    }

    private static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return generator.generateKeyPair();
    }

    private static X509Certificate caCertificate(KeyPair ca, Instant now)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        X500Name name = new X500Name("CN=watchgate-ca@" + now.getEpochSecond());
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial(),
                Date.from(now.minus(CLOCK_SKEW)), Date.from(now.plus(CA_LIFETIME)), name, ca.getPublic());
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        builder.addExtension(Extension.keyUsage, true,
                new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
        builder.addExtension(Extension.subjectKeyIdentifier, false,
                extensions.createSubjectKeyIdentifier(ca.getPublic()));
        return sign(builder, ca.getPrivate());
    }

    private static X509Certificate servingCertificate(KeyPair serving, X509Certificate ca, PrivateKey caKey,
            List<String> names, Instant now) throws GeneralSecurityException, OperatorCreationException, IOException {
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca, serial(),
                Date.from(now.minus(CLOCK_SKEW)), Date.from(now.plus(SERVING_LIFETIME)),
                new X500Name("CN=watchgate"), serving.getPublic());
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        builder.addExtension(Extension.subjectAlternativeName, false,
                new GeneralNames(names.stream().map(SubjectNames::generalName).toArray(GeneralName[]::new)));
        builder.addExtension(Extension.authorityKeyIdentifier, false,
                extensions.createAuthorityKeyIdentifier(ca));
        builder.addExtension(Extension.subjectKeyIdentifier, false,
                extensions.createSubjectKeyIdentifier(serving.getPublic()));
        return sign(builder, caKey);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
            throws GeneralSecurityException, OperatorCreationException {
        X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder(SIGNATURE).build(key));
        return new JcaX509CertificateConverter().getCertificate(holder);
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }
}
