package io.watchgate.authn;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.vertx.http.HttpServerStart;
import io.watchgate.persistence.StorageConfig;
import io.watchgate.store.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * A way in for a new durable server, as k3s gives one: in durable mode, without a token file, and with
 * {@code watchgate.auth.bootstrap-admin} on, the data directory holds an admin token ({@link AdminToken}, user
 * {@code system:admin} in {@code system:masters}) and, rewritten once the server listens, a kubeconfig using it
 * ({@link AdminKubeconfig}). In memory mode nothing is written: there is no place that outlives the process.
 */
@ApplicationScoped
public class AdminBootstrap {

    private static final Logger LOG = Logger.getLogger(AdminBootstrap.class);

    static final UserInfo USER = UserInfo.authenticated("system:admin", "system:admin", List.of(UserInfo.MASTERS));

    private final Optional<Path> dataDir;
    private Optional<String> token;

    /**
     * {@code store} is not used: asking for it opens the data directory (made if so configured, and locked) before
     * a file is written into it.
     */
    AdminBootstrap(AuthConfig auth, StorageConfig storage, Store store) {
        boolean applies = storage.mode() == StorageConfig.Mode.DURABLE && auth.tokenFile().isEmpty()
                && auth.bootstrapAdmin();
        this.dataDir = applies ? Optional.of(Path.of(storage.dataDir()).toAbsolutePath()) : Optional.empty();
    }

    /** The admin token, generated on the first start of the data directory; empty when there is no bootstrap. */
    synchronized Optional<String> token() {
        if (token == null) {
            try {
                token = dataDir.isPresent() ? Optional.of(AdminToken.loadOrCreate(dataDir.get())) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException("the bootstrap admin token in " + dataDir.get() + ": "
                        + e.getMessage(), e);
            }
        }
        return token;
    }

    /** Points the kubeconfig at the port the server actually listens on (Quarkus may have chosen it at random). */
    void listening(@ObservesAsync HttpServerStart started) {
        if (dataDir.isEmpty()) {
            return;
        }
        // Quarkus publishes the port it bound as a system property when it was chosen at random
        String property = System.getProperty(LaunchMode.current() == LaunchMode.TEST ? "quarkus.http.test-port"
                : "quarkus.http.port");
        int port = property == null ? started.options().getPort() : Integer.parseInt(property);
        try {
            Path file = writeKubeconfig(serverUrl(started.options().getHost(), port));
            LOG.infof("the admin kubeconfig is %s: kubectl --kubeconfig %s get ns", file, file);
        } catch (IOException | RuntimeException e) {
            LOG.errorf("the admin kubeconfig in %s cannot be written: %s", dataDir.get(), e.getMessage());
        }
    }

    Path writeKubeconfig(String server) throws IOException {
        return AdminKubeconfig.write(dataDir.orElseThrow(), server, token().orElseThrow());
    }

    /** The address a local kubectl reaches the server at: loopback when it listens on every address. */
    static String serverUrl(String host, int port) {
        String reachable = host == null || host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")
                || host.equals("[::]") ? "127.0.0.1" : host;
        if (reachable.contains(":") && !reachable.startsWith("[")) {
            reachable = "[" + reachable + "]";
        }
        return "http://" + reachable + ":" + port;
    }
}
