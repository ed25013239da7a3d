package io.watchgate.audit;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.Identities;
import io.watchgate.authn.UserInfo;
import io.watchgate.request.QueryParameters;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestEnd;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The audit log's route (kube-apiserver's audit filter): first on the API port, it notes when each request arrived,
 * and when its response ends (or its connection closes) hands one line to the {@link AuditWriter}: the request's
 * user as authentication left it (none for a 401), the user impersonated, verb and object, the code answered. A
 * watch is written when it ends (over WebSocket, when the socket closes), with its whole duration as latency.
 */
@ApplicationScoped
class RequestAudit {

    private final AuditWriter writer;
    private final boolean enabled;
    private final Optional<Set<String>> verbs;

    RequestAudit(AuditConfig config, AuditWriter writer) {
        this.writer = writer;
        this.enabled = config.enabled();
        this.verbs = config.verbs();
    }

    void install(@Observes Router router) {
        if (enabled) {
            router.route().order(RouteOrder.AUDIT.order()).handler(this::audit);
        }
    }

    private void audit(RoutingContext context) {
        long started = System.nanoTime();
        Instant received = Instant.now();
        RequestEnd.onEnd(context, completed -> write(context, completed, started, received));
        context.next();
    }

    private void write(RoutingContext context, boolean completed, long started, Instant received) {
        RequestInfo request = RequestInfos.of(context);
        if (verbs.isPresent() && !verbs.get().contains(request.verb())) {
            return;
        }
        boolean known = Identities.known(context);
        UserInfo user = known ? Identities.authenticated(context) : null;
        UserInfo acting = known ? Identities.of(context) : null;
        SocketAddress remote = context.request().remoteAddress();
        writer.offer(new AuditEvent(auditId(), "ResponseComplete", context.request().uri(),
                request, user, acting != user ? acting : null, remote == null ? "" : remote.hostAddress(),
                context.request().getHeader(HttpHeaders.USER_AGENT), code(context, completed),
                resourceVersion(context), received, Instant.now(), (System.nanoTime() - started) / 1000).line());
    }

    /**
     * A random (version 4) UUID from the event loop's own generator: {@code UUID.randomUUID()} would take the one
     * SecureRandom every loop shares, for an id that needs to be unique, not unguessable.
     */
    private static String auditId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }

    /** The code answered: 101 for a watch that became a WebSocket, 499 (as nginx) when the client left first. */
    private static int code(RoutingContext context, boolean completed) {
        if (RequestEnd.wasUpgraded(context)) {
            return 101;
        }
        return completed || context.response().headWritten() ? context.response().getStatusCode() : 499;
    }

    private static String resourceVersion(RoutingContext context) {
        try {
            return QueryParameters.first(context, "resourceVersion");
        } catch (IllegalArgumentException e) {
            return null; // a query that does not decode: the request was refused for it
        }
    }
}
