package io.watchgate.tls;

import io.quarkus.tls.runtime.KeyStoreAndKeyCertOptions;
import io.quarkus.tls.runtime.KeyStoreProvider;
import io.vertx.core.Vertx;
import io.watchgate.persistence.StorageConfig;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * What HTTPS serves: the configured certificate and key files, else (durable mode, bootstrap on) the certificates
 * {@link BootstrapCertificates} keeps in the data directory, else nothing, and the API port is plain HTTP only.
 *
 * <p>It is the key store of the TLS configuration {@value ApiTls#NAME}, which the HTTP server takes by name when
 * {@link ApiTls} says HTTPS is on: Quarkus asks for it before the server listens, and again at each {@link CertificateReload}. The files are read each time,
 * so a renewed certificate is what the next handshake gets.
 */
@ApplicationScoped
@Identifier(ApiTls.NAME)
public class ServingCertificate implements KeyStoreProvider {

    private static final Logger LOG = Logger.getLogger(ServingCertificate.class);

    private final Optional<CertificateFiles> files;
    private final boolean bootstrapped;
    private final Path dataDir;
    private final List<String> bootstrapNames;

    public ServingCertificate(TlsConfig tls, StorageConfig storage) {
        this.dataDir = Path.of(storage.dataDir()).toAbsolutePath();
        this.bootstrapNames = BootstrapCertificates.namesWith(tls.bootstrapNames().orElse(List.of()));
        this.files = resolve(tls, storage);
        this.bootstrapped = files.isPresent() && tls.certFile().isEmpty();
    }

    /** Issues the bootstrap serving certificate again if it nears its end; nothing for configured files. */
    void renewBootstrap() throws IOException {
        if (bootstrapped) {
            BootstrapCertificates.ensure(dataDir, bootstrapNames, Instant.now());
        }
    }

    private Optional<CertificateFiles> resolve(TlsConfig tls, StorageConfig storage) {
        if (tls.certFile().isPresent() != tls.keyFile().isPresent()) {
            throw new IllegalStateException("watchgate.tls.cert-file and watchgate.tls.key-file go together: "
                    + (tls.certFile().isPresent() ? "the key file" : "the certificate file") + " is not set");
        }
        if (tls.certFile().isPresent()) {
            // cert-manager's Secrets hold the issuing CA beside the certificate: the kubeconfig can trust it
            Path authority = tls.certFile().get().resolveSibling("ca.crt");
            return Optional.of(new CertificateFiles(tls.certFile().get(), tls.keyFile().get(),
                    Files.isRegularFile(authority) ? Optional.of(authority) : Optional.empty()));
        }
        if (storage.mode() != StorageConfig.Mode.DURABLE || !tls.bootstrap()) {
            return Optional.empty();
        }
        if (!Files.isDirectory(dataDir) && !storage.createDataDir()) {
            throw new IllegalStateException("the data directory " + dataDir + " does not exist: create it (or mount "
                    + "the volume), or set watchgate.storage.create-data-dir=true");
        }
        try {
            CertificateFiles made = BootstrapCertificates.ensure(dataDir, bootstrapNames, Instant.now());
            LOG.infof("HTTPS serves the bootstrap certificate %s (for %s), signed by the CA %s", made.cert(),
                    String.join(", ", bootstrapNames), made.authority().orElseThrow());
            return Optional.of(made);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    @Override
    public KeyStoreAndKeyCertOptions getKeyStore(Vertx vertx) {
        if (files.isEmpty()) {
            return null;
        }
        try {
            return ServedKeyStore.of(Pem.privateKey(Pem.read(files.get().key(), "the key file")),
                    Pem.certificates(Pem.read(files.get().cert(), "the certificate file")));
        } catch (Exception e) {
            throw new IllegalStateException("HTTPS cannot serve " + files.get().cert() + " with the key "
                    + files.get().key() + ": " + e.getMessage(), e);
        }
    }

    /** Whether the API port also listens for HTTPS. */
    public boolean serving() {
        return files.isPresent();
    }

    /**
     * The CA (PEM) for a kubeconfig to trust: the bootstrap CA, or the {@code ca.crt} beside a configured certificate
     * (as in cert-manager's Secrets); empty otherwise, and clients trust their system's CAs.
     */
    public Optional<byte[]> bootstrapAuthority() throws IOException {
        if (files.isEmpty() || files.get().authority().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Pem.read(files.get().authority().get(), "the CA file"));
    }

    Optional<CertificateFiles> files() {
        return files;
    }
}
