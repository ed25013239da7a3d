package io.watchgate.authn;

import io.vertx.core.http.HttpServerRequest;
import io.smallrye.common.annotation.Identifier;
import io.watchgate.tls.ApiTls;
import io.watchgate.tls.ClientCertificateAuthority;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * kube-apiserver's x509 authenticator: a client certificate that verifies against {@code watchgate.tls.client-ca-file}
 * (at the handshake, and again at each request: {@link ClientCertificateAuthority#verifiedClient}) names the user by
 * its subject's common name, in the groups of its organizations, with no uid. A certificate without a common name names no one, and the request's token (or its
 * absence) decides. Without a client CA, certificates are neither asked for nor looked at.
 */
@ApplicationScoped
class ClientCertificates {

    private final ClientCertificateAuthority authority;

    ClientCertificates(@Identifier(ApiTls.NAME) ClientCertificateAuthority authority) {
        this.authority = authority;
    }

    Optional<UserInfo> user(HttpServerRequest request) {
        if (!authority.configured() || !request.isSSL()) {
            return Optional.empty();
        }
        return authority.verifiedClient(request.sslSession())
                .flatMap(leaf -> userOf(X500Name.getInstance(leaf.getSubjectX500Principal().getEncoded())));
    }

    /** When the request's verified client certificate stops being valid, if it has one. */
    Optional<java.time.Instant> expiry(HttpServerRequest request) {
        if (!authority.configured() || !request.isSSL()) {
            return Optional.empty();
        }
        return authority.verifiedClient(request.sslSession()).map(leaf -> leaf.getNotAfter().toInstant());
    }

    /** The user of a subject as Go's pkix.Name reads it: the last common name, every organization in order. */
    static Optional<UserInfo> userOf(X500Name subject) {
        List<String> names = values(subject, BCStyle.CN);
        if (names.isEmpty() || names.get(names.size() - 1).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(UserInfo.authenticated(names.get(names.size() - 1), "", values(subject, BCStyle.O)));
    }

    /** The values of one attribute type, in the order of the name, multi-valued RDNs included; strings unescaped. */
    private static List<String> values(X500Name subject, ASN1ObjectIdentifier type) {
        List<String> values = new ArrayList<>();
        for (RDN rdn : subject.getRDNs(type)) {
            for (AttributeTypeAndValue attribute : rdn.getTypesAndValues()) {
                if (attribute.getType().equals(type)) {
                    values.add(attribute.getValue() instanceof ASN1String text ? text.getString()
                            : IETFUtils.valueToString(attribute.getValue()));
                }
            }
        }
        return values;
    }
}
