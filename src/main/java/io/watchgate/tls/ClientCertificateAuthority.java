package io.watchgate.tls;

import io.quarkus.tls.runtime.TrustStoreAndTrustOptions;
import io.quarkus.tls.runtime.TrustStoreProvider;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemTrustOptions;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The CAs client certificates are verified against ({@code watchgate.tls.client-ca-file}), as the trust store of
 * the TLS configuration {@value ApiTls#NAME}: the TLS handshake itself refuses a certificate they did not sign, so a request
 * that got through carries a verified chain. Read again at each {@link CertificateReload}.
 */
@ApplicationScoped
@Identifier(ApiTls.NAME)
public class ClientCertificateAuthority implements TrustStoreProvider {

    private final Optional<Path> file;

    ClientCertificateAuthority(TlsConfig tls) {
        this.file = tls.clientCaFile();
    }

    @Override
    public TrustStoreAndTrustOptions getTrustStore(Vertx vertx) {
        if (file.isEmpty()) {
            return null;
        }
        try {
            byte[] content = Pem.read(file.get(), "the client CA file");
            Pem.certificates(content); // a clear error here, not a handshake that fails for everyone later
            PemTrustOptions options = new PemTrustOptions().addCertValue(Buffer.buffer(content));
            return new TrustStoreAndTrustOptions(options.loadKeyStore(vertx), options);
        } catch (Exception e) {
            throw new IllegalStateException("the client CA file " + file.get() + " cannot be used: " + e.getMessage(),
                    e);
        }
    }

    /** Whether client certificates are asked for, and so may name the user. */
    public boolean configured() {
        return file.isPresent();
    }
}
