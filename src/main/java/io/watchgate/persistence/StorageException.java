package io.watchgate.persistence;

/** The data directory cannot be used: the server must not start (or go on) as if it could. */
public final class StorageException extends RuntimeException {

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
