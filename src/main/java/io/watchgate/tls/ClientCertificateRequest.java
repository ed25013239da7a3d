package io.watchgate.tls;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.smallrye.common.annotation.Identifier;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * With a client CA, HTTPS asks every client for a certificate and goes on without one (kube-apiserver's
 * {@code VerifyClientCertIfGiven}): a certificate its CA did not sign fails the handshake.
 */
@ApplicationScoped
class ClientCertificateRequest implements HttpServerOptionsCustomizer {

    private final ClientCertificateAuthority authority;

    ClientCertificateRequest(@Identifier(ApiTls.NAME) ClientCertificateAuthority authority) {
        this.authority = authority;
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        if (authority.configured() && options.getClientAuth() == ClientAuth.NONE) { // REQUIRED, if so set, stays
            options.setClientAuth(ClientAuth.REQUEST);
        }
    }
}
