package io.watchgate.etcd;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.util.concurrent.MoreExecutors;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.WatchCache;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLException;

/** Opens the etcd store: the client from the configuration, the watch cache loaded, the watch started. */
public final class EtcdStorage {

    /**
     * What one gRPC message from etcd may hold: no limit of gRPC's own, as kube-apiserver's client. A page of the
     * load is 100 keys, each at most etcd's request limit (1.5 MiB by default); a watch response is what etcd
     * batches.
     */
    private static final int MAX_MESSAGE_BYTES = Integer.MAX_VALUE;

    private EtcdStorage() {
    }

    /**
     * @param maxRevisions and {@code maxHistoryBytes}: the cache's history bounds, as the embedded store's
     * @param completions  where writers' futures complete (a worker pool)
     * @throws EtcdUnavailable when etcd cannot be reached or read within the start timeout
     */
    public static EtcdStore open(EtcdConfig config, ObjectMapper mapper, int maxRevisions, long maxHistoryBytes,
            Clock clock, MemoryBudget budget, Executor completions) {
        Client client = client(config);
        CacheFeed feed = null;
        try {
            EtcdKeys keys = new EtcdKeys(config.prefix());
            StoredValues values = new StoredValues(mapper);
            WatchCache cache = new WatchCache(maxRevisions, maxHistoryBytes, budget);
            EtcdHealth health = new EtcdHealth(clock);
            RevisionSync sync = new RevisionSync(client.getKVClient(), keys, cache, config.requestTimeout());
            feed = new CacheFeed(client, keys, new WatchEvents(keys, values, clock), cache, clock, health, sync,
                    config.startTimeout());
            feed.start(config.startTimeout());
            Transactions transactions = new Transactions(client.getKVClient(), keys, values, cache, sync, clock,
                    config.requestTimeout(), completions, health);
            return new EtcdStore(client, cache, feed, sync, transactions, values, budget, health);
        } catch (RuntimeException e) {
            if (feed != null) {
                feed.close();
            }
            client.close();
            throw e;
        }
    }

    private static Client client(EtcdConfig config) {
        if (config.endpoints().isEmpty()) {
            throw new IllegalArgumentException("watchgate.storage.etcd.endpoints names no etcd");
        }
        ClientBuilder builder = Client.builder().endpoints(config.endpoints().toArray(String[]::new))
                .connectTimeout(Duration.ofSeconds(5)).keepaliveTime(Duration.ofSeconds(30))
                .keepaliveTimeout(Duration.ofSeconds(10)).maxInboundMessageSize(MAX_MESSAGE_BYTES)
                // a call while etcd is known unreachable fails at once rather than wait for it: a write answered
                // 503 must not be sent when etcd comes back
                .waitForReady(false)
                // jetcd would hand every call to a thread of its pool just to start it: started by the caller
                // instead, as it does not block (its answer still comes on jetcd's own event loop), a write costs
                // one thread switch less
                .executorService(MoreExecutors.newDirectExecutorService());
        config.username().ifPresent(user -> builder.user(ByteSequence.from(user, StandardCharsets.UTF_8)));
        config.password().ifPresent(password -> builder.password(ByteSequence.from(password,
                StandardCharsets.UTF_8)));
        long secure = config.endpoints().stream().filter(endpoint -> endpoint.startsWith("https://")).count();
        if (secure != 0 && secure != config.endpoints().size()) {
            throw new IllegalArgumentException("watchgate.storage.etcd.endpoints mixes http:// and https://: "
                    + config.endpoints());
        }
        if (secure > 0 || config.caFile().isPresent() || config.certFile().isPresent()) {
            // TLS whenever the endpoints are https, trusting the JDK's CAs unless ca-file names others
            if (config.certFile().isPresent() != config.keyFile().isPresent()) {
                throw new IllegalArgumentException("watchgate.storage.etcd.cert-file and key-file go together");
            }
            try {
                builder.sslContext(tls -> {
                    config.caFile().ifPresent(ca -> tls.trustManager(new File(ca)));
                    config.certFile().ifPresent(cert -> tls.keyManager(new File(cert),
                            new File(config.keyFile().orElseThrow())));
                });
            } catch (SSLException e) {
                throw new IllegalArgumentException("the etcd TLS files cannot be used: " + e.getMessage(), e);
            }
        }
        return builder.build();
    }
}
