package io.watchgate.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.ShutdownEvent;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.HistoryConfig;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.watchgate.etcd.EtcdConfig;
import io.watchgate.etcd.EtcdHealth;
import io.watchgate.etcd.EtcdStorage;
import io.watchgate.etcd.EtcdStore;
import io.watchgate.store.HistoryCompaction;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Clock;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Wires the store: in memory only, recovered from its data directory and logging every commit, or on etcd with a
 * watch cache.
 */
@ApplicationScoped
public class StorageProducer {

    private static final Logger LOG = Logger.getLogger(StorageProducer.class);

    private volatile DurableStorage durable;
    private volatile EtcdStore etcd;

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    Store store(ObjectMapper mapper, HistoryConfig history, StorageConfig storage, EtcdConfig etcdConfig,
            Clock clock, MemoryBudget budget) {
        long historyBytes = MemoryStore.historyBytesWithin(history.maxBytes(), budget);
        if (historyBytes < history.maxBytes()) {
            LOG.warnf("watchgate.history.max-bytes lowered to %d so that history fills at most half the memory "
                    + "budget", historyBytes);
        }
        if (storage.mode() == StorageConfig.Mode.ETCD) {
            etcd = EtcdStorage.open(etcdConfig, mapper, history.maxRevisions(), historyBytes, clock, budget,
                    Infrastructure.getDefaultWorkerPool());
            return etcd;
        }
        MemoryStore store = new MemoryStore(mapper, history.maxRevisions(), historyBytes, clock, budget);
        if (storage.mode() == StorageConfig.Mode.DURABLE) {
            durable = DurableStorage.open(storage, store, mapper);
        }
        return store;
    }

    /** Both stores keep their own history (etcd's watch cache too), which the {@code Compactor} bounds by age. */
    @Produces
    @Singleton
    HistoryCompaction historyCompaction(Store store) {
        return (HistoryCompaction) store;
    }

    /** etcd's health, in etcd mode. */
    public Optional<EtcdHealth> etcd() {
        EtcdStore store = etcd;
        return store == null ? Optional.empty() : Optional.of(store.health());
    }

    /**
     * Why the store takes no writes until a restart, if so: its write-ahead log failed in a way only recovery
     * from the disk can mend. Empty in memory mode.
     */
    public Optional<String> writesRefusedUntilRestart() {
        return log().map(WriteAheadLog::refusal);
    }

    /** The write-ahead log, in durable mode. */
    public Optional<WriteAheadLog> log() {
        DurableStorage storage = durable;
        return storage == null ? Optional.empty() : Optional.of(storage.log());
    }

    void stop(@Observes ShutdownEvent event) {
        EtcdStore etcdStore = etcd;
        if (etcdStore != null) {
            etcdStore.close();
        }
        DurableStorage storage = durable;
        if (storage != null) {
            try {
                storage.close();
            } catch (IOException e) {
                LOG.error("closing the data directory failed", e);
            }
        }
    }
}
