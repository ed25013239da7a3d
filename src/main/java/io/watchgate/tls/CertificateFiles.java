package io.watchgate.tls;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The files HTTPS serves from: a certificate chain and its key, and, for a bootstrap, the CA that signed them (which
 * the admin kubeconfig trusts).
 */
record CertificateFiles(Path cert, Path key, Optional<Path> authority) {

    CertificateFiles(Path cert, Path key, Path authority) {
        this(cert, key, Optional.of(authority));
    }
}
