package io.watchgate.persistence;

import io.watchgate.store.ChangeEvent;
import io.watchgate.store.CommitLog;
import io.watchgate.store.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.jboss.logging.Logger;

/**
 * The write-ahead log: every committed mutation is appended to the current segment and synced before the
 * store applies and acknowledges it. One thread writes: whatever writers queued while it synced the last batch
 * becomes the next batch, so concurrent writers share a sync (group commit) and a lone writer waits for one.
 *
 * <p>When a write or a sync fails, the batch and everything queued behind it are failed (never acknowledged,
 * never applied) and the segment is cut back to where the batch began and synced, so that recovery cannot
 * resurrect them; the log then takes writes again. If the cut or its sync fails too (a disk that keeps failing),
 * the log takes no writes until a restart. The same goes when a new segment cannot be started, or the writer
 * thread itself fails: writers are refused, never left waiting.
 */
public final class WriteAheadLog implements CommitLog, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WriteAheadLog.class);

    /** Opens a segment's channel: the file system, or a failing one in tests. */
    interface Channels {
        FileChannel open(Path file) throws IOException;

        Channels FILES = file -> FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
    }

    private final DataDirectory directory;
    private final long segmentBytes;
    private final long snapshotAfterBytes;
    private final Channels channels;
    private final Object queueLock = new Object();
    private List<ChangeEvent> queue = new ArrayList<>();
    private final Thread writer;
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong entries = new AtomicLong();
    private final AtomicLong syncNanos = new AtomicLong();
    private final AtomicLong appendNanos = new AtomicLong();
    private volatile boolean closing;
    private volatile String broken;
    private Sink sink;
    private LongConsumer snapshotDue = revision -> { };

    // the writer thread's own
    private FileChannel segment;
    private long segmentSize;
    private long bytesSinceSnapshot;

    /**
     * @param lastRevision       the newest revision recovered: the log goes on at the next one, at the end of
     *                           the newest segment (cut after its last whole entry by recovery), or in a first one
     * @param bytesSinceSnapshot what recovery replayed after the snapshot: it counts towards the next one
     */
    WriteAheadLog(DataDirectory directory, StorageConfig config, long lastRevision, long bytesSinceSnapshot,
            Channels channels) throws IOException {
        this.directory = directory;
        this.segmentBytes = config.segmentBytes();
        this.snapshotAfterBytes = config.snapshotAfterBytes();
        this.channels = channels;
        this.bytesSinceSnapshot = bytesSinceSnapshot;
        List<DataDirectory.Segment> segments = directory.segments();
        if (segments.isEmpty()) {
            openSegment(lastRevision + 1);
        } else {
            segment = channels.open(segments.get(segments.size() - 1).file());
            segmentSize = segment.size();
            segment.position(segmentSize);
        }
        this.writer = new Thread(this::run, "watchgate-wal");
        this.writer.setDaemon(true);
    }

    /** Starts writing, reporting to {@code sink}; {@code snapshotDue} hears when enough has been logged. */
    void start(Sink sink, LongConsumer snapshotDue) {
        this.sink = sink;
        this.snapshotDue = snapshotDue;
        writer.start();
    }

    @Override
    public void append(ChangeEvent event) {
        if (broken != null) {
            throw new StoreException.Unavailable("the write-ahead log takes no writes: " + broken);
        }
        synchronized (queueLock) {
            if (closing) {
                throw new StoreException.Unavailable("the server is shutting down");
            }
            queue.add(event);
            queueLock.notify();
        }
    }

    @Override
    public void discardQueued() {
        synchronized (queueLock) {
            queue.clear();
        }
    }

    /** Why the log takes no writes until a restart has recovered from the disk, or null while it takes them. */
    public String refusal() {
        return broken;
    }

    /** Syncs so far: fewer than entries when writers share them. */
    public long syncs() {
        return syncs.get();
    }

    public long entries() {
        return entries.get();
    }

    /** Time spent in syncs so far, in nanoseconds: over {@link #syncs()}, the mean sync latency. */
    public long syncNanos() {
        return syncNanos.get();
    }

    /**
     * Time spent encoding batches and writing them to the segment so far, in nanoseconds. Each batch is appended
     * once and synced once, so over {@link #syncs()} this is the mean append latency.
     */
    public long appendNanos() {
        return appendNanos.get();
    }

    private void run() {
        while (true) {
            List<ChangeEvent> batch;
            synchronized (queueLock) {
                while (queue.isEmpty() && !closing) {
                    try {
                        queueLock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (queue.isEmpty()) {
                    return; // closing, and everything queued is written
                }
                batch = queue;
                queue = new ArrayList<>();
            }
            if (broken != null) {
                // queued before the log broke (a segment that could not be started): refused, not written
                sink.failed(new IOException(broken));
                continue;
            }
            long start = segmentSize;
            long written;
            try {
                written = write(batch);
            } catch (IOException | RuntimeException e) {
                fail(start, e);
                continue;
            }
            try {
                sink.durable(batch);
                afterBatch(batch.get(batch.size() - 1).revision(), written);
            } catch (Throwable e) {
                // the writers waiting on this thread must never wait forever
                broken = "the log writer failed (" + e + "); restart to recover";
                LOG.error(broken, e);
                sink.failed(new IOException(broken, e));
                if (e instanceof VirtualMachineError error) {
                    throw error;
                }
            }
        }
    }

    private long write(List<ChangeEvent> batch) throws IOException {
        long appendStart = System.nanoTime();
        ByteBuffer[] records = new ByteBuffer[batch.size()];
        long total = 0;
        for (int i = 0; i < records.length; i++) {
            records[i] = Records.wrap(Records.entry(LogEntry.of(batch.get(i))));
            total += records[i].remaining();
        }
        long done = 0;
        while (done < total) {
            done += segment.write(records);
        }
        long syncStart = System.nanoTime();
        segment.force(false);
        // both times count only once synced: syncs() is the count they are averaged over
        appendNanos.addAndGet(syncStart - appendStart);
        syncNanos.addAndGet(System.nanoTime() - syncStart);
        syncs.incrementAndGet();
        entries.addAndGet(batch.size());
        segmentSize += total;
        return total;
    }

    private void fail(long start, Exception cause) {
        LOG.errorf(cause, "the write-ahead log could not write or sync %s; the writes waiting on it are refused",
                directory.path());
        try {
            segment.truncate(start);
            segment.position(start);
            segmentSize = start;
            segment.force(false);
        } catch (IOException | RuntimeException e) {
            // the refused writes may still be on disk, or come back: take no more until a restart has looked
            broken = "cutting " + directory.path() + " back after a failed write failed too (" + e
                    + "); restart to recover";
            LOG.error(broken, e);
        }
        sink.failed(cause);
    }

    private void afterBatch(long revision, long written) {
        bytesSinceSnapshot += written;
        if (segmentSize >= segmentBytes) {
            try {
                segment.close();
                openSegment(revision + 1);
            } catch (IOException e) {
                broken = "a new log segment cannot be started (" + e + "); restart to recover";
                LOG.error(broken, e);
            }
        }
        if (bytesSinceSnapshot >= snapshotAfterBytes) {
            bytesSinceSnapshot = 0;
            snapshotDue.accept(revision);
        }
    }

    private void openSegment(long firstRevision) throws IOException {
        Path file = directory.segmentFile(firstRevision);
        segment = channels.open(file);
        // a file of this name can only be one a crash left empty: start it so
        segment.truncate(0);
        segment.position(0);
        segmentSize = 0;
        directory.sync();
    }

    /** Deletes the segments whose entries are all at or before {@code revision}, which a snapshot now holds. */
    void releaseThrough(long revision) throws IOException {
        List<DataDirectory.Segment> segments = directory.segments();
        for (int i = 0; i + 1 < segments.size(); i++) {
            if (segments.get(i + 1).firstRevision() <= revision + 1) {
                Files.deleteIfExists(segments.get(i).file());
            }
        }
        directory.sync();
    }

    /** Writes what is queued, then stops: later appends are refused. */
    @Override
    public void close() throws IOException {
        synchronized (queueLock) {
            closing = true;
            queueLock.notifyAll();
        }
        try {
            writer.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        segment.close();
    }
}
