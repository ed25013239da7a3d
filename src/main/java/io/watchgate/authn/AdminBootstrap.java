package io.watchgate.authn;

import io.quarkus.vertx.http.HttpServer;
import io.quarkus.vertx.http.HttpServerStart;
import io.quarkus.vertx.http.HttpsServerStart;
import io.vertx.core.Vertx;
import io.watchgate.persistence.StorageConfig;
import io.watchgate.store.Store;
import io.watchgate.tls.ApiTls;
import io.watchgate.tls.ServingCertificate;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;
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
    private final ServingCertificate tls;
    private Optional<String> token;

    /**
     * {@code store} is not used: asking for it opens the data directory (made if so configured, and locked) before
     * a file is written into it.
     */
    AdminBootstrap(AuthConfig auth, StorageConfig storage, Store store,
            @Identifier(ApiTls.NAME) ServingCertificate tls) {
        this.tls = tls;
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

    /**
     * Points the kubeconfig at the port the server actually listens on: the HTTPS one when there is one, for kubectl
     * sends a token over TLS only. The event comes as the first event loop listens, before Quarkus registers the port
     * it bound (the event's own says -1 when it was chosen at random): that is awaited on a timer (at most 10 s), and
     * the file written on a worker thread.
     */
    void listening(@ObservesAsync HttpServerStart started, Vertx vertx, HttpServer server) {
        if (dataDir.isPresent() && !tls.serving()) {
            awaitPort(vertx, server, HttpServer::getPort, "http", started.options().getHost(), 100);
        }
    }

    void listeningSecurely(@ObservesAsync HttpsServerStart started, Vertx vertx, HttpServer server) {
        if (dataDir.isPresent() && tls.serving()) {
            awaitPort(vertx, server, HttpServer::getSecurePort, "https", started.options().getHost(), 100);
        }
    }

    private void awaitPort(Vertx vertx, HttpServer server, ToIntFunction<HttpServer> port, String scheme,
            String host, int attemptsLeft) {
        int bound = registeredPort(server, port);
        if (bound > 0) {
            vertx.executeBlocking(() -> {
                writeKubeconfigFor(scheme, host, bound);
                return null;
            }, false);
        } else if (attemptsLeft > 0) {
            vertx.setTimer(100, id -> awaitPort(vertx, server, port, scheme, host, attemptsLeft - 1));
        } else {
            LOG.errorf("the admin kubeconfig in %s is not written: the port the server listens on is not known",
                    dataDir.get());
        }
    }

    private static int registeredPort(HttpServer server, ToIntFunction<HttpServer> port) {
        try {
            return port.applyAsInt(server);
        } catch (RuntimeException e) {
            return 0; // not registered yet
        }
    }

    private void writeKubeconfigFor(String scheme, String host, int port) {
        try {
            Path file = writeKubeconfig(serverUrl(scheme, host, port));
            LOG.infof("the admin kubeconfig is %s: kubectl --kubeconfig %s get ns", file, file);
        } catch (IOException | RuntimeException e) {
            LOG.errorf("the admin kubeconfig in %s cannot be written: %s", dataDir.get(), e.getMessage());
        }
    }

    Path writeKubeconfig(String server) throws IOException {
        return AdminKubeconfig.write(dataDir.orElseThrow(), server, tls.bootstrapAuthority(), token().orElseThrow());
    }

    /** The address a local kubectl reaches the server at: loopback when it listens on every address. */
    static String serverUrl(String scheme, String host, int port) {
        String reachable = host == null || host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")
                || host.equals("[::]") || host.equals("localhost") ? "127.0.0.1" : host;
        if (reachable.contains(":") && !reachable.startsWith("[")) {
            reachable = "[" + reachable + "]";
        }
        return scheme + "://" + reachable + ":" + port;
    }
}
