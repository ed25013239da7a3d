package io.watchgate.persistence;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where and how the store keeps its data. */
@ConfigMapping(prefix = "watchgate.storage")
public interface StorageConfig {

    enum Mode {
        /** Everything in memory: lost at exit. For tests and demos. */
        MEMORY,
        /** A write-ahead log and snapshots in {@link #dataDir()}: acknowledged writes survive a crash. */
        DURABLE,
        /**
         * In etcd (see {@code EtcdConfig}), which any number of replicas share, each serving from a watch cache.
         */
        ETCD
    }

    @WithDefault("durable")
    Mode mode();

    /** The data directory (durable mode). It must exist unless {@link #createDataDir()} is set. */
    @WithDefault("data")
    String dataDir();

    /**
     * Create the data directory when it is missing. Off by default: a volume that failed to mount must not be
     * mistaken for an empty store.
     */
    @WithDefault("false")
    boolean createDataDir();

    /** A log segment is closed and a new one started past this size. */
    @WithDefault("67108864")
    long segmentBytes();

    /** A snapshot is written once this many bytes have been logged since the last one. */
    @WithDefault("134217728")
    long snapshotAfterBytes();
}
