package io.watchgate.persistence;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A file holding a credential: readable and writable by its owner only (mode 0600 where the file system has POSIX
 * permissions), and replaced whole, so that a reader (or a crash) never sees half of it.
 */
public final class PrivateFile {

    public static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private PrivateFile() {
    }

    /** Writes {@code content} to a temporary file beside {@code target}, syncs it, and moves it over the target. */
    public static void write(Path target, byte[] content) throws IOException {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.deleteIfExists(temporary); // left by a crash, perhaps with other permissions
        // created 0600 from the start: a chmod after writing would leave a moment the credential is readable
        FileAttribute<?>[] ownerOnly = posix(target) ? new FileAttribute<?>[] {
            PosixFilePermissions.asFileAttribute(OWNER_ONLY)} : new FileAttribute<?>[0];
        try (FileChannel channel = FileChannel.open(temporary, Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), ownerOnly)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel directory = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            directory.force(true); // the rename is durable once the directory is
        } catch (IOException e) {
            // some file systems cannot sync a directory; the file itself is complete either way
        }
    }

    /** Whether {@code file} is readable or writable by others than its owner (false where there are no modes). */
    public static boolean sharedWithOthers(Path file) throws IOException {
        if (!posix(file)) {
            return false;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        return !OWNER_ONLY.containsAll(permissions);
    }

    private static boolean posix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
