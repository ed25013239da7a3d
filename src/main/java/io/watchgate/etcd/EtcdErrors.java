package io.watchgate.etcd;

import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.Status;

/** What etcd's refusals say, as jetcd or gRPC carry them. */
final class EtcdErrors {

    private EtcdErrors() {
    }

    /** The gRPC status code of {@code failure} (UNKNOWN when neither jetcd nor gRPC carries one). */
    static Status.Code codeOf(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof EtcdException etcd) {
                return Status.Code.valueOf(etcd.getErrorCode().name());
            }
        }
        return Status.fromThrowable(failure).getCode();
    }
}
