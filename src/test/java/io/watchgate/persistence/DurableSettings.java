package io.watchgate.persistence;

/** Durable-mode settings for tests and benchmarks that open a store on a directory of their own. */
public record DurableSettings(String dataDir, boolean createDataDir, long segmentBytes, long snapshotAfterBytes)
        implements StorageConfig {

    @Override
    public Mode mode() {
        return Mode.DURABLE;
    }
}
