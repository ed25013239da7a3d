package io.watchgate.tls;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * HTTPS on the API port, with kube-apiserver's three files: the serving certificate and its key, and the CA that
 * client certificates are verified against. HTTPS listens on {@code quarkus.http.ssl-port}; plain HTTP goes on unless
 * {@code quarkus.http.insecure-requests=disabled}.
 */
@ConfigMapping(prefix = "watchgate.tls")
public interface TlsConfig {

    /** The serving certificate (PEM; the chain after it), as kube-apiserver's {@code --tls-cert-file}. */
    Optional<Path> certFile();

    /** Its private key (PEM), as kube-apiserver's {@code --tls-private-key-file}. */
    Optional<Path> keyFile();

    /**
     * CA certificates (PEM) that client certificates are verified against, as kube-apiserver's
     * {@code --client-ca-file}. A client presenting a certificate it signed is the user of the certificate's common
     * name, in the groups of its organizations; without this file, client certificates are not asked for.
     */
    Optional<Path> clientCaFile();

    /** How often the three files are reread, so that a renewed certificate (cert-manager's) is served without a restart. */
    @WithDefault("1m")
    Duration reloadPeriod();

    /**
     * In durable mode without a certificate file: generate a CA and a serving certificate into the data directory's
     * {@code tls/} on first start (and a new serving certificate when it nears its end), so that the admin kubeconfig
     * works over HTTPS at once.
     */
    @WithDefault("true")
    boolean bootstrap();

    /** Host names and IP addresses the bootstrap serving certificate is for, besides localhost and the loopbacks. */
    Optional<List<String>> bootstrapNames();
}
