package io.watchgate.tls;

import java.security.GeneralSecurityException;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.Certificate;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXCertPathBuilderResult;
import java.security.cert.X509CertSelector;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Verifies a TLS session's client chain against one version of the client CAs, as Go's x509 verification with
 * {@code ExtKeyUsageClientAuth} that kube-apiserver runs on every request: the chain up to a CA of the file, every
 * certificate in its validity now, and the client-authentication usage wherever usages are listed. The path check
 * is done once per session and CA version (kept in the session); each request then checks only the dates.
 */
final class ClientChains {

    static final ClientChains NONE = new ClientChains(Set.of(), 0);

    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String ANY_USAGE = "2.5.29.37.0";
    private static final String SESSION_KEY = ClientChains.class.getName();

    private final Set<TrustAnchor> anchors;
    private final long version;

    private ClientChains(Set<TrustAnchor> anchors, long version) {
        this.anchors = anchors;
        this.version = version;
    }

    /** The chains of the CAs read next. */
    ClientChains next(Set<TrustAnchor> nextAnchors) {
        return new ClientChains(nextAnchors, version + 1);
    }

    Optional<X509Certificate> verified(SSLSession session, Instant now) throws SSLPeerUnverifiedException {
        if (session == null || anchors.isEmpty()) {
            return Optional.empty();
        }
        X509Certificate[] chain = Arrays.stream(session.getPeerCertificates()).map(X509Certificate.class::cast)
                .toArray(X509Certificate[]::new);
        if (chain.length == 0 || !withinValidity(chain, now)) {
            return Optional.empty();
        }
        if (!Long.valueOf(version).equals(session.getValue(SESSION_KEY))) {
            if (!pathVerifies(chain, now)) {
                return Optional.empty(); // not remembered: a later CA version may verify it
            }
            session.putValue(SESSION_KEY, version);
        }
        return Optional.of(chain[0]);
    }

    private static boolean withinValidity(X509Certificate[] chain, Instant now) {
        Date at = Date.from(now);
        for (X509Certificate certificate : chain) {
            try {
                certificate.checkValidity(at);
            } catch (GeneralSecurityException e) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a path from the leaf to one of the CAs can be built from the certificates the client sent, in any
     * order and with extras (a root, a cross-signed CA), as the handshake and Go build one; every certificate of it
     * within its validity and allowing client authentication where it lists usages.
     */
    private boolean pathVerifies(X509Certificate[] chain, Instant now) {
        try {
            X509CertSelector leaf = new X509CertSelector();
            leaf.setCertificate(chain[0]);
            PKIXBuilderParameters parameters = new PKIXBuilderParameters(anchors, leaf);
            parameters.addCertStore(CertStore.getInstance("Collection",
                    new CollectionCertStoreParameters(Arrays.asList(chain))));
            parameters.setRevocationEnabled(false); // kube has no revocation lists for client certificates either
            parameters.setDate(Date.from(now));
            PKIXCertPathBuilderResult built = (PKIXCertPathBuilderResult) CertPathBuilder.getInstance("PKIX")
                    .build(parameters);
            for (Certificate certificate : built.getCertPath().getCertificates()) {
                List<String> usages = ((X509Certificate) certificate).getExtendedKeyUsage();
                if (usages != null && !usages.contains(CLIENT_AUTH) && !usages.contains(ANY_USAGE)) {
                    return false;
                }
            }
            return true;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }
}
