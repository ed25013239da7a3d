package io.watchgate.authn;

import io.vertx.core.http.HttpServerRequest;
import io.smallrye.common.annotation.Identifier;
import io.watchgate.tls.ApiTls;
import io.watchgate.tls.ClientCertificateAuthority;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * kube-apiserver's x509 authenticator: a client certificate that the TLS handshake verified against
 * {@code watchgate.tls.client-ca-file} names the user by its subject's common name, in the groups of its
 * organizations, with no uid. A certificate without a common name names no one, and the request's token (or its
 * absence) decides. Without a client CA, certificates are neither asked for nor looked at.
 */
@ApplicationScoped
class ClientCertificates {

    private final boolean enabled;

    ClientCertificates(@Identifier(ApiTls.NAME) ClientCertificateAuthority authority) {
        this.enabled = authority.configured();
    }

    Optional<UserInfo> user(HttpServerRequest request) {
        if (!enabled || !request.isSSL()) {
            return Optional.empty();
        }
        SSLSession session = request.sslSession();
        if (session == null) {
            return Optional.empty();
        }
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return Optional.empty(); // no certificate given
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
            return Optional.empty();
        }
        return userOf(X500Name.getInstance(leaf.getSubjectX500Principal().getEncoded()));
    }

    static Optional<UserInfo> userOf(X500Name subject) {
        List<String> names = values(subject, BCStyle.CN);
        if (names.isEmpty() || names.get(0).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(UserInfo.authenticated(names.get(0), "", values(subject, BCStyle.O)));
    }

    /** The values of one attribute type, in the order of the name, multi-valued RDNs included. */
    private static List<String> values(X500Name subject, ASN1ObjectIdentifier type) {
        List<String> values = new ArrayList<>();
        for (RDN rdn : subject.getRDNs(type)) {
            for (AttributeTypeAndValue attribute : rdn.getTypesAndValues()) {
                if (attribute.getType().equals(type)) {
                    values.add(IETFUtils.valueToString(attribute.getValue()));
                }
            }
        }
        return values;
    }
}
