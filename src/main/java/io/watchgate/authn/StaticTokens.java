package io.watchgate.authn;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Bearer tokens known in advance: those of kube-apiserver's static token file ({@code watchgate.auth.token-file}),
 * or else the bootstrap admin's ({@link AdminBootstrap}). The file is read at start (one that does not read stops
 * the start) and checked every {@code token-file-check-interval} on a worker thread: a changed file that reads
 * replaces the table at once; one that does not leaves the last good table in use. Lookups read an immutable table
 * through one volatile field: no lock, no copy, nothing that blocks an event loop.
 */
@ApplicationScoped
public class StaticTokens implements TokenAuthenticator {

    private static final Logger LOG = Logger.getLogger(StaticTokens.class);

    private final AuthConfig config;
    private final AdminBootstrap bootstrap;
    private final Vertx vertx;
    private final Counter reloaded;
    private final Counter reloadFailed;
    private volatile TokenTable table = TokenTable.EMPTY;

    // the file and the version last read: touched by start and by checks only, under this object's lock
    private Path file;
    private FileStamp seenStamp;
    private byte[] seenDigest;
    private long timer = -1;

    StaticTokens(AuthConfig config, AdminBootstrap bootstrap, Vertx vertx, MeterRegistry registry) {
        this.config = config;
        this.bootstrap = bootstrap;
        this.vertx = vertx;
        this.reloaded = reloads(registry, "ok");
        this.reloadFailed = reloads(registry, "failed");
    }

    private static Counter reloads(MeterRegistry registry, String result) {
        return Counter.builder("watchgate.token.file.reloads").tag("result", result)
                .description("times a changed token file was read again: ok (its tokens are in use now) or failed "
                        + "(the tokens read before stay in use)").register(registry);
    }

    @Override
    public Optional<UserInfo> authenticate(String token) {
        return table.find(token);
    }

    void start(@Observes StartupEvent event) {
        Optional<Path> configured = config.tokenFile();
        if (configured.isPresent()) {
            useTokenFile(configured.get());
            long interval = config.tokenFileCheckInterval().toMillis();
            if (interval > 0) { // 0: read once, as kube-apiserver reads it
                timer = vertx.setPeriodic(interval, id -> vertx.executeBlocking(() -> {
                    checkNow();
                    return null;
                }, false));
            }
            return;
        }
        Optional<String> admin = bootstrap.token();
        if (admin.isPresent()) {
            table = TokenTable.of(admin.get(), AdminBootstrap.USER);
        } else if (!config.anonymous()) {
            LOG.warn("no bearer token is known: watchgate.auth.token-file is not set, and there is no bootstrap admin "
                    + "(durable mode and watchgate.auth.bootstrap-admin=true make one)");
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** Reads the token file the server starts with; a file that does not read stops the start. */
    synchronized void useTokenFile(Path tokenFile) {
        file = tokenFile.toAbsolutePath();
        try {
            seenStamp = FileStamp.of(file);
            byte[] content = TokenFile.read(file);
            seenDigest = CredentialDigest.sha256(content);
            table = TokenFile.parse(file.toString(), content);
        } catch (TokenFile.Unreadable | IOException e) {
            throw new IllegalStateException("watchgate.auth.token-file: " + e.getMessage(), e);
        }
        LOG.infof("token file %s: %d tokens", file, table.size());
    }

    /**
     * Reads the token file again if its modification time or size changed, and uses its tokens if its content did
     * and it reads. Each version of the file is read once: a broken one is reported once, not at every check.
     */
    synchronized void checkNow() {
        if (file == null) {
            return;
        }
        try {
            FileStamp stamp = FileStamp.of(file);
            if (stamp.equals(seenStamp)) {
                return;
            }
            seenStamp = stamp;
            byte[] content = TokenFile.read(file);
            byte[] digest = CredentialDigest.sha256(content);
            if (Arrays.equals(digest, seenDigest)) {
                return;
            }
            seenDigest = digest;
            TokenTable next = TokenFile.parse(file.toString(), content);
            table = next;
            reloaded.increment();
            LOG.infof("token file %s changed: %d tokens now", file, next.size());
        } catch (TokenFile.Unreadable | IOException e) {
            reloadFailed.increment();
            LOG.errorf("token file %s changed and does not read; the %d tokens read before stay in use: %s", file,
                    table.size(), e.getMessage());
        }
    }
}
