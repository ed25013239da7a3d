package io.watchgate.tls;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.tls.CertificateUpdatedEvent;
import io.quarkus.tls.TlsConfiguration;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.smallrye.common.annotation.Identifier;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Serves renewed certificates without a restart: every {@code watchgate.tls.reload-period}, on a worker thread, the
 * serving certificate, its key and the client CA are read; when their content changed, the API port's TLS
 * configuration in Quarkus' registry is reloaded from them and the HTTP server told ({@link CertificateUpdatedEvent}), so new handshakes
 * use them while open connections go on. A version that does not load leaves the last good one in use.
 *
 * <p>Content, not modification times, says what changed: a Kubernetes Secret volume swaps a symlink, and cert-manager
 * may write a file whose time goes back.
 */
@ApplicationScoped
class CertificateReload {

    private static final Logger LOG = Logger.getLogger(CertificateReload.class);

    private final List<Path> files = new ArrayList<>();
    private final ServingCertificate serving;
    private final TlsConfig config;
    private final Vertx vertx;
    private final TlsConfigurationRegistry registry;
    private final Event<CertificateUpdatedEvent> updated;
    private final Counter reloaded;
    private final Counter reloadFailed;
    private byte[] seen; // under this object's lock
    private long timer = -1;

    CertificateReload(TlsConfig config, @Identifier(ApiTls.NAME) ServingCertificate serving, Vertx vertx, TlsConfigurationRegistry registry,
            Event<CertificateUpdatedEvent> updated, MeterRegistry meters) {
        this.config = config;
        this.serving = serving;
        this.vertx = vertx;
        this.registry = registry;
        this.updated = updated;
        serving.files().ifPresent(served -> {
            files.add(served.cert());
            files.add(served.key());
        });
        config.clientCaFile().ifPresent(files::add);
        this.reloaded = reloads(meters, "ok");
        this.reloadFailed = reloads(meters, "failed");
    }

    private static Counter reloads(MeterRegistry registry, String result) {
        return Counter.builder("watchgate.tls.reloads").tag("result", result)
                .description("times changed certificate files were loaded: ok (new handshakes use them) or failed "
                        + "(the ones loaded before stay in use)").register(registry);
    }

    void start(@Observes StartupEvent event) {
        long period = config.reloadPeriod().toMillis();
        if (files.isEmpty() || period <= 0) {
            return;
        }
        synchronized (this) {
            seen = digestOrNull();
        }
        timer = vertx.setPeriodic(period, id -> vertx.executeBlocking(() -> {
            checkNow();
            return null;
        }, false));
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** Loads the files again if their content changed since the last look; each version is tried once. */
    synchronized void checkNow() {
        try {
            serving.renewBootstrap();
        } catch (IOException | RuntimeException e) {
            LOG.errorf("the bootstrap certificate cannot be renewed: %s", e.getMessage());
        }
        byte[] digest = digestOrNull();
        if (digest == null || java.util.Arrays.equals(digest, seen)) {
            return; // a file missing for a moment, as a Secret volume is updated, is looked at again next time
        }
        seen = digest;
        Optional<TlsConfiguration> configuration = registry.get(ApiTls.NAME);
        try {
            if (configuration.isEmpty() || !configuration.get().reload()) {
                throw new IllegalStateException("Quarkus did not reload its TLS configuration");
            }
            updated.fire(new CertificateUpdatedEvent(configuration.get().getName(), configuration.get()));
            reloaded.increment();
            LOG.infof("the certificate files changed and are in use now: %s", files);
        } catch (RuntimeException e) {
            reloadFailed.increment();
            LOG.errorf("the certificate files changed and do not load; the ones loaded before stay in use: %s",
                    e.getMessage());
        }
    }

    private byte[] digestOrNull() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Path file : files) {
                digest.update(Pem.read(file, "the file"));
                digest.update((byte) 0);
            }
            return digest.digest();
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            LOG.errorf("the certificate files cannot be read: %s", e.getMessage());
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
