package io.watchgate.etcd;

/** etcd could not be reached, or did not answer in time, where the server cannot go on without it (its start). */
public final class EtcdUnavailable extends RuntimeException {

    EtcdUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
