package io.watchgate.tls;

import io.quarkus.tls.runtime.TrustStoreAndTrustOptions;
import io.quarkus.tls.runtime.TrustStoreProvider;
import io.smallrye.common.annotation.Identifier;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The CAs client certificates are verified against ({@code watchgate.tls.client-ca-file}), as the trust store of
 * the TLS configuration {@value ApiTls#NAME}: the TLS handshake itself refuses a certificate they did not sign. Read
 * again at each {@link CertificateReload}.
 *
 * <p>A connection outlives its handshake, so each request's certificate is verified again, as kube-apiserver's x509
 * authenticator does ({@link ClientChains}): an expired certificate, or one whose CA was taken out of the file, names
 * no one from then on, whatever connection it came on.
 */
@ApplicationScoped
@Identifier(ApiTls.NAME)
public class ClientCertificateAuthority implements TrustStoreProvider {

    private final Optional<Path> file;
    private volatile ClientChains chains = ClientChains.NONE;

    ClientCertificateAuthority(TlsConfig tls,
            @ConfigProperty(name = "quarkus.http.tls-configuration-name") Optional<String> httpsConfiguration) {
        this.file = tls.clientCaFile();
        if (file.isPresent() && !httpsConfiguration.equals(Optional.of(ApiTls.NAME))) {
            // HTTPS set up some other way would verify client certificates against other CAs (the JDK's, even)
            throw new IllegalStateException("watchgate.tls.client-ca-file needs HTTPS from watchgate.tls.cert-file "
                    + "(or, in durable mode, the bootstrap certificate), and quarkus.http.tls-configuration-name left "
                    + "unset");
        }
    }

    @Override
    public TrustStoreAndTrustOptions getTrustStore(Vertx vertx) {
        if (file.isEmpty()) {
            return null;
        }
        try {
            byte[] content = Pem.read(file.get(), "the client CA file");
            Set<TrustAnchor> anchors = Pem.certificates(content).stream()
                    .map(certificate -> new TrustAnchor(certificate, null)).collect(Collectors.toUnmodifiableSet());
            PemTrustOptions options = new PemTrustOptions().addCertValue(Buffer.buffer(content));
            TrustStoreAndTrustOptions loaded = new TrustStoreAndTrustOptions(options.loadKeyStore(vertx), options);
            chains = chains.next(anchors); // Quarkus reloads on a worker; requests read the volatile field
            return loaded;
        } catch (Exception e) {
            throw new IllegalStateException("the client CA file " + file.get() + " cannot be used: " + e.getMessage(),
                    e);
        }
    }

    /** Whether client certificates are asked for, and so may name the user. */
    public boolean configured() {
        return file.isPresent();
    }

    /**
     * The client certificate of a request's TLS session, if it has one and it verifies now against the CAs loaded
     * now; empty otherwise.
     */
    public Optional<X509Certificate> verifiedClient(SSLSession session) {
        if (file.isEmpty()) {
            return Optional.empty();
        }
        try {
            return chains.verified(session, Instant.now());
        } catch (SSLPeerUnverifiedException e) {
            return Optional.empty(); // no certificate given
        }
    }
}
