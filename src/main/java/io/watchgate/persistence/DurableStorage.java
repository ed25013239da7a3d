package io.watchgate.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.store.LogBackedStore;
import io.watchgate.store.SnapshotView;
import io.watchgate.store.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The store made durable: recovered from its data directory, then logging every commit before it counts, and
 * writing a snapshot (then dropping the log it covers) each time enough has been logged.
 */
public final class DurableStorage implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DurableStorage.class);

    private final DataDirectory directory;
    private final LogBackedStore store;
    private final WriteAheadLog log;
    private final Recovery.Result recovered;
    private final ExecutorService snapshots = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "watchgate-snapshot");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicBoolean snapshotting = new AtomicBoolean();

    private DurableStorage(DataDirectory directory, LogBackedStore store, WriteAheadLog log, Recovery.Result recovered) {
        this.directory = directory;
        this.store = store;
        this.log = log;
        this.recovered = recovered;
    }

    /** Recovers {@code store}, which must be new, from the configured directory, and makes it log its commits. */
    public static DurableStorage open(StorageConfig config, LogBackedStore store, ObjectMapper mapper) {
        return open(config, store, mapper, WriteAheadLog.Channels.FILES);
    }

    static DurableStorage open(StorageConfig config, LogBackedStore store, ObjectMapper mapper,
            WriteAheadLog.Channels channels) {
        DataDirectory directory = DataDirectory.open(Path.of(config.dataDir()), config.createDataDir());
        try {
            long started = System.nanoTime();
            Recovery.Result recovered = new Recovery(directory, mapper).recover(store);
            removeLeftovers(directory, recovered.snapshotRevision());
            WriteAheadLog log = new WriteAheadLog(directory, config, recovered.revision(), recovered.logBytes(),
                    channels);
            DurableStorage storage = new DurableStorage(directory, store, log, recovered);
            log.start(store.useLog(log), revision -> storage.snapshotSoon());
            LOG.infof("recovered %s at revision %d in %d ms (snapshot at %d, %d log entries replayed%s)",
                    directory.path(), recovered.revision(), (System.nanoTime() - started) / 1_000_000,
                    recovered.snapshotRevision(), recovered.logEntries(),
                    recovered.droppedBytes() > 0 ? ", a torn tail of " + recovered.droppedBytes() + " bytes dropped"
                            : "");
            return storage;
        } catch (IOException e) {
            closeQuietly(directory);
            throw new StorageException("the data directory " + directory.path() + " cannot be read: " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(directory);
            throw e;
        }
    }

    public Recovery.Result recovered() {
        return recovered;
    }

    public WriteAheadLog log() {
        return log;
    }

    private void snapshotSoon() {
        if (snapshotting.compareAndSet(false, true)) {
            snapshots.execute(() -> {
                try {
                    snapshot();
                } catch (IOException | RuntimeException e) {
                    LOG.error("writing a snapshot failed; the log is kept and the next one will try again", e);
                } finally {
                    snapshotting.set(false);
                }
            });
        }
    }

    /**
     * Writes a snapshot of the store now, then drops what it makes unnecessary: the newest two snapshots are kept,
     * and the log since the older of them, so that a damaged newest snapshot is recovered from the one before it
     * without losing a write.
     */
    public synchronized void snapshot() throws IOException {
        long started = System.nanoTime();
        SnapshotView view = null;
        for (int attempt = 1; view == null; attempt++) {
            try {
                view = store.snapshotView();
            } catch (StoreException.Compacted e) {
                if (attempt == 3) {
                    throw e; // history turns over faster than the objects can be read: try at the next one
                }
            }
        }
        SnapshotFile.writeOrClean(directory, view);
        keepTwoSnapshots(directory, view.revision());
        log.releaseThrough(olderKept(directory, view.revision()));
        LOG.infof("snapshot of revision %d written in %d ms (%d objects, %d history events)", view.revision(),
                (System.nanoTime() - started) / 1_000_000, view.objects().size(), view.events().size());
    }

    /**
     * The revision of the snapshot kept before the one of {@code newest}, whose log is kept too; 0 when there is
     * none, and then the log is kept from its first revision, which stands in for it.
     */
    private static long olderKept(DataDirectory directory, long newest) throws IOException {
        long older = 0;
        for (DataDirectory.Snapshot snapshot : directory.snapshots()) {
            if (snapshot.revision() < newest) {
                older = Math.max(older, snapshot.revision());
            }
        }
        return older;
    }

    /** Deletes the snapshots older than the one before {@code newest}. */
    private static void keepTwoSnapshots(DataDirectory directory, long newest) throws IOException {
        long older = olderKept(directory, newest);
        for (DataDirectory.Snapshot snapshot : directory.snapshots()) {
            if (snapshot.revision() < older) {
                Files.deleteIfExists(snapshot.file());
            }
        }
        directory.sync();
    }

    /**
     * Snapshots beyond the two kept (a crash came between writing a snapshot and deleting what it replaces), and
     * half-written ones.
     */
    private static void removeLeftovers(DataDirectory directory, long snapshotRevision) throws IOException {
        if (snapshotRevision > 0) {
            keepTwoSnapshots(directory, snapshotRevision);
        }
        List<Path> halfWritten;
        try (var files = Files.list(directory.path())) {
            halfWritten = files.filter(file -> file.getFileName().toString().endsWith(".snap.tmp")).toList();
        }
        for (Path file : halfWritten) {
            Files.deleteIfExists(file);
        }
    }

    /** Writes what is queued, waits for a snapshot being written, and lets the directory go. */
    @Override
    public void close() throws IOException {
        try {
            log.close();
            snapshots.shutdown();
            snapshots.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            directory.close();
        }
    }

    private static void closeQuietly(DataDirectory directory) {
        try {
            directory.close();
        } catch (IOException e) {
            LOG.debug("releasing the data directory failed", e);
        }
    }
}
