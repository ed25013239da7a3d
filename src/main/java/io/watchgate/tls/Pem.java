package io.watchgate.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * PEM files of certificates and keys, read whole but bounded: such a file is a few kilobytes. Private keys are read in
 * each encoding openssl and cert-manager write (PKCS #8, PKCS #1 for RSA, SEC 1 for EC).
 */
public final class Pem {

    /** Far above any chain or key, far below what could hurt the heap. */
    static final int MAX_BYTES = 1 << 20;

    private Pem() {
    }

    static byte[] read(Path file, String what) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] content = in.readNBytes(MAX_BYTES + 1);
            if (content.length > MAX_BYTES) {
                throw new IOException(what + " " + file + " is larger than " + MAX_BYTES + " bytes");
            }
            return content;
        }
    }

    /**
     * The certificates of a PEM (or DER) file, in order; at least one. Other PEM blocks are passed over, as openssl
     * and Vert.x pass them: a file may hold its certificate and its key together.
     */
    public static List<X509Certificate> certificates(byte[] content) throws IOException {
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            List<X509Certificate> certificates = new ArrayList<>();
            String text = new String(content, StandardCharsets.US_ASCII);
            if (!text.contains("-----BEGIN ")) {
                x509.generateCertificates(new ByteArrayInputStream(content))
                        .forEach(certificate -> certificates.add((X509Certificate) certificate));
            } else {
                try (PemReader reader = new PemReader(new StringReader(text))) {
                    for (PemObject block = reader.readPemObject(); block != null; block = reader.readPemObject()) {
                        if (block.getType().equals("CERTIFICATE")) {
                            certificates.add((X509Certificate) x509.generateCertificate(
                                    new ByteArrayInputStream(block.getContent())));
                        }
                    }
                }
            }
            if (certificates.isEmpty()) {
                throw new IOException("no certificate in it");
            }
            return certificates;
        } catch (CertificateException | RuntimeException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** A certificate, a key ({@code PKCS #8} for private keys) or a PEM object, as PEM text. */
    static byte[] encode(Object object) throws IOException {
        Object written = object instanceof PrivateKey key ? new JcaPKCS8Generator(key, null).generate() : object;
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            if (written instanceof PemObject pem) {
                writer.writeObject(pem);
            } else {
                writer.writeObject(written);
            }
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** The first private key of a PEM file; an error naming what it found otherwise. */
    static PrivateKey privateKey(byte[] content) throws IOException {
        return new JcaPEMKeyConverter().getPrivateKey(privateKeyInfo(content));
    }

    private static PrivateKeyInfo privateKeyInfo(byte[] content) throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(new String(content, StandardCharsets.US_ASCII)))) {
            Object read;
            while ((read = parser.readObject()) != null) {
                if (read instanceof PrivateKeyInfo info) {
                    return info;
                }
                if (read instanceof PEMKeyPair pair) {
                    return pair.getPrivateKeyInfo();
                }
                if (read instanceof PEMEncryptedKeyPair || read instanceof PKCS8EncryptedPrivateKeyInfo) {
                    throw new IOException("the private key is encrypted: give it unencrypted, readable by this "
                            + "process only");
                }
            }
        } catch (RuntimeException e) {
            throw new IOException("no private key can be read from it: " + e.getMessage(), e);
        }
        throw new IOException("there is no private key in it");
    }
}
