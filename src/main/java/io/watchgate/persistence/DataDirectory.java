package io.watchgate.persistence;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The data directory: log segments ({@code wal-<first revision>.log}) and snapshots
 * ({@code snapshot-<revision>.snap}), held by one process at a time through a lock on {@code LOCK}.
 */
final class DataDirectory implements AutoCloseable {

    private static final Pattern SEGMENT = Pattern.compile("wal-(\\d{20})\\.log");
    private static final Pattern SNAPSHOT = Pattern.compile("snapshot-(\\d{20})\\.snap");

    /** A log segment and the revision of its first entry. */
    record Segment(Path file, long firstRevision) {
    }

    /** A snapshot file and the revision it holds the state at. */
    record Snapshot(Path file, long revision) {
    }

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private DataDirectory(Path path, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Opens (and with {@code create}, makes) the directory and takes its lock; a clear error when it cannot. */
    static DataDirectory open(Path path, boolean create) {
        Path absolute = path.toAbsolutePath();
        if (!Files.exists(absolute)) {
            if (!create) {
                throw new StorageException("the data directory " + absolute + " does not exist: create it (or mount "
                        + "the volume), or set watchgate.storage.create-data-dir=true");
            }
            try {
                Files.createDirectories(absolute);
            } catch (IOException e) {
                throw new StorageException("the data directory " + absolute + " cannot be created: " + e, e);
            }
        }
        if (!Files.isDirectory(absolute)) {
            throw new StorageException("the data directory " + absolute + " is not a directory");
        }
        if (!Files.isReadable(absolute) || !Files.isWritable(absolute) || !Files.isExecutable(absolute)) {
            throw new StorageException("the data directory " + absolute + " is not readable and writable by this "
                    + "process");
        }
        try {
            FileChannel channel = FileChannel.open(absolute.resolve("LOCK"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held in this very process
            }
            if (lock == null) {
                channel.close();
                throw new StorageException("the data directory " + absolute + " is in use by another process");
            }
            return new DataDirectory(absolute, channel, lock);
        } catch (IOException e) {
            throw new StorageException("the data directory " + absolute + " cannot be locked: " + e, e);
        }
    }

    Path path() {
        return path;
    }

    Path segmentFile(long firstRevision) {
        return path.resolve(String.format("wal-%020d.log", firstRevision));
    }

    Path snapshotFile(long revision) {
        return path.resolve(String.format("snapshot-%020d.snap", revision));
    }

    /** The log segments, oldest first. */
    List<Segment> segments() throws IOException {
        List<Segment> segments = new ArrayList<>();
        for (Path file : list()) {
            Matcher name = SEGMENT.matcher(file.getFileName().toString());
            if (name.matches()) {
                segments.add(new Segment(file, revisionIn(file, name)));
            }
        }
        segments.sort((a, b) -> Long.compare(a.firstRevision(), b.firstRevision()));
        return segments;
    }

    /** The snapshots, oldest first. */
    List<Snapshot> snapshots() throws IOException {
        List<Snapshot> snapshots = new ArrayList<>();
        for (Path file : list()) {
            Matcher name = SNAPSHOT.matcher(file.getFileName().toString());
            if (name.matches()) {
                snapshots.add(new Snapshot(file, revisionIn(file, name)));
            }
        }
        snapshots.sort((a, b) -> Long.compare(a.revision(), b.revision()));
        return snapshots;
    }

    /** The revision a file's name gives: twenty digits can name more than a revision can be. */
    private static long revisionIn(Path file, Matcher name) {
        try {
            return Long.parseLong(name.group(1));
        } catch (NumberFormatException e) {
            throw new StorageException("the data directory holds " + file + ", whose name gives a revision out of "
                    + "range; it was not written by this server: move it out of the directory");
        }
    }

    private List<Path> list() throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
            entries.forEach(files::add);
        }
        return files;
    }

    /** Makes created, renamed and deleted entries durable: a rename is not, until its directory is synced. */
    void sync() throws IOException {
        try (FileChannel directory = FileChannel.open(path, StandardOpenOption.READ)) {
            directory.force(true);
        }
    }

    @Override
    public void close() throws IOException {
        lock.release();
        lockChannel.close();
    }
}
