package io.watchgate.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
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
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Certificates a test makes for itself: CAs, serving certificates, client certificates, and SSL contexts of them. */
public final class TestPki {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A certificate and its key; a CA is one that signs others. */
    public record Issued(X509Certificate certificate, KeyPair keys) {

        public Issued server(String... names) throws Exception {
            return serverFor(keys(), names);
        }

        /** A serving certificate for keys of the caller's (RSA, say). */
        public Issued serverFor(KeyPair keys, String... names) throws Exception {
            return issue(this, "CN=watchgate-test", KeyPurposeId.id_kp_serverAuth, List.of(names), keys);
        }

        /** An intermediate CA this one signs. */
        public Issued intermediate(String name) throws Exception {
            KeyPair keys = keys();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(certificate, serial(), from(), until(),
                    new X500Name("CN=" + name), keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature));
            return new Issued(sign(builder, this.keys), keys);
        }

        /** A client certificate for {@code subject}, such as {@code CN=carol,O=team-a}. */
        public Issued client(String subject) throws Exception {
            return issue(this, subject, KeyPurposeId.id_kp_clientAuth, List.of(), keys());
        }

        public String certificatePem() throws IOException {
            return new String(Pem.encode(certificate), java.nio.charset.StandardCharsets.US_ASCII);
        }

        public void writeCertificate(Path file) throws IOException {
            Files.write(file, Pem.encode(certificate));
        }

        public void writeKey(Path file) throws IOException {
            Files.write(file, Pem.encode(keys.getPrivate()));
        }
    }

    private TestPki() {
    }

    public static Issued ca(String name) throws Exception {
        KeyPair keys = keys();
        X500Name subject = new X500Name("CN=" + name);
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(), from(), until(),
                subject, keys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature));
        return new Issued(sign(builder, keys), keys);
    }

    private static Issued issue(Issued ca, String subject, KeyPurposeId purpose, List<String> names, KeyPair keys)
            throws Exception {
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca.certificate(), serial(), from(),
                until(), new X500Name(subject), keys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature
                | KeyUsage.keyEncipherment));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
        if (!names.isEmpty()) {
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
                    names.stream().map(SubjectNames::generalName).toArray(GeneralName[]::new)));
        }
        return new Issued(sign(builder, ca.keys()), keys);
    }

    /** A client's SSL context: trusting {@code server}'s CA, presenting {@code identity} when there is one. */
    public static SSLContext context(X509Certificate trusted, Issued identity) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", trusted);
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        KeyManagerFactory keyManagers = null;
        if (identity != null) {
            KeyStore own = KeyStore.getInstance("PKCS12");
            own.load(null, null);
            own.setKeyEntry("me", identity.keys().getPrivate(), new char[0],
                    new X509Certificate[] {identity.certificate()});
            keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(own, new char[0]);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers == null ? null : new KeyManager[] {new Insistent(
                (X509ExtendedKeyManager) keyManagers.getKeyManagers()[0])}, trustManagers.getTrustManagers(), RANDOM);
        return context;
    }

    /**
     * Presents its certificate whatever CAs the server says it accepts, as a hostile client would: the JDK's own key
     * manager would send nothing to a server that did not name its CA.
     */
    private static final class Insistent extends X509ExtendedKeyManager {

        private final X509ExtendedKeyManager own;

        Insistent(X509ExtendedKeyManager own) {
            this.own = own;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "me";
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "me";
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"me"};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return own.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return own.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return own.getCertificateChain(alias);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return own.getPrivateKey(alias);
        }
    }

    static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) throws Exception {
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    }

    static KeyPair keys() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(120, RANDOM).add(BigInteger.ONE);
    }

    private static Date from() {
        return Date.from(Instant.now().minus(Duration.ofHours(1)));
    }

    private static Date until() {
        return Date.from(Instant.now().plus(Duration.ofDays(30)));
    }
}
