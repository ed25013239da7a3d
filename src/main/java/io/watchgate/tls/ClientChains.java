package io.watchgate.tls;

import java.security.GeneralSecurityException;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
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

    private boolean pathVerifies(X509Certificate[] chain, Instant now) {
        try {
            for (X509Certificate certificate : chain) {
                List<String> usages = certificate.getExtendedKeyUsage();
                if (usages != null && !usages.contains(CLIENT_AUTH) && !usages.contains(ANY_USAGE)) {
                    return false;
                }
            }
            CertPath path = CertificateFactory.getInstance("X.509").generateCertPath(trimmed(chain));
            PKIXParameters parameters = new PKIXParameters(anchors);
            parameters.setRevocationEnabled(false); // kube has no revocation lists for client certificates either
            parameters.setDate(Date.from(now));
            CertPathValidator.getInstance("PKIX").validate(path, parameters);
            return true;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The chain without a trailing certificate that is itself one of the CAs (a path ends below its anchor). */
    private List<X509Certificate> trimmed(X509Certificate[] chain) {
        int length = chain.length;
        while (length > 1 && isAnchor(chain[length - 1])) {
            length--;
        }
        return Arrays.asList(chain).subList(0, length);
    }

    private boolean isAnchor(X509Certificate certificate) {
        return anchors.stream().anyMatch(anchor -> certificate.equals(anchor.getTrustedCert()));
    }
}
