package io.watchgate.authn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * What a file's metadata says of its version: a change of either means it must be read again. A missing file has
 * a stamp of its own, so that it is reported once, not at every check.
 */
record FileStamp(FileTime modified, long size) {

    static final FileStamp MISSING = new FileStamp(FileTime.fromMillis(0), -1);

    static FileStamp of(Path file) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new FileStamp(attributes.lastModifiedTime(), attributes.size());
        } catch (NoSuchFileException e) {
            return MISSING;
        }
    }
}
