package io.watchgate.request;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.vertx.http.runtime.filters.QuarkusRequestWrapper;
import io.vertx.core.http.HttpServerRequest;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.jboss.logging.Logger;

/**
 * Tells Quarkus that a request which became a WebSocket is over once its socket has closed. Quarkus counts a request
 * in flight until its response ends or its connection closes, and a graceful shutdown waits for the count to reach
 * zero; but Vert.x tells only the WebSocket of an upgraded connection's close, never the response, so every
 * WebSocket ever served (a watch, a stream) stayed counted and held each shutdown for the whole
 * {@code quarkus.shutdown.timeout}. Quarkus has no public call for it: this reaches its request wrapper's own
 * (package-private) {@code done}, the one its response's close would have run. {@code GracefulShutdownIT} fails
 * when a Quarkus upgrade changes that.
 */
@RegisterForReflection(targets = QuarkusRequestWrapper.class, methods = true, fields = false)
final class UpgradedRequests {

    private static final Logger LOG = Logger.getLogger(UpgradedRequests.class);
    private static final MethodHandle DONE = done();

    private UpgradedRequests() {
    }

    /** The request is over: its WebSocket has closed, or it never became one. Once is enough; more do nothing. */
    static void done(HttpServerRequest request) {
        if (DONE == null) {
            return;
        }
        try {
            QuarkusRequestWrapper wrapper = QuarkusRequestWrapper.get(request);
            if (wrapper != null) {
                DONE.invoke(wrapper);
            }
        } catch (Throwable e) {
            LOG.debugf(e, "could not tell Quarkus that an upgraded request is over");
        }
    }

    private static MethodHandle done() {
        try {
            return MethodHandles.privateLookupIn(QuarkusRequestWrapper.class, MethodHandles.lookup())
                    .findVirtual(QuarkusRequestWrapper.class, "done", MethodType.methodType(void.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warnf("a shutdown will wait out quarkus.shutdown.timeout after any WebSocket was served: %s", e);
            return null;
        }
    }
}
