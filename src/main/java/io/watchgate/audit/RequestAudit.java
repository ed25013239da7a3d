package io.watchgate.audit;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.Identities;
import io.watchgate.authn.UserInfo;
import io.watchgate.request.QueryParameters;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The audit log's route (kube-apiserver's audit filter): first on the API port, it notes when each request arrived,
 * and when its response ends (or its connection closes) hands one line to the {@link AuditWriter}: the request's
 * user as authentication left it (none for a 401), the user impersonated, verb and object, the code answered. A
 * watch is written when it ends, with its whole duration as latency.
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
        context.addEndHandler(ended -> {
            RequestInfo request = RequestInfos.of(context);
            if (verbs.isPresent() && !verbs.get().contains(request.verb())) {
                return;
            }
            boolean known = Identities.known(context);
            UserInfo user = known ? Identities.authenticated(context) : null;
            UserInfo acting = known ? Identities.of(context) : null;
            SocketAddress remote = context.request().remoteAddress();
            // a response that never began (its client went away first) has no code of its own: 499, as nginx says
            int code = ended.succeeded() || context.response().headWritten() ? context.response().getStatusCode()
                    : 499;
            writer.offer(new AuditEvent(UUID.randomUUID().toString(), "ResponseComplete", context.request().uri(),
                    request, user, acting != user ? acting : null, remote == null ? "" : remote.hostAddress(),
                    context.request().getHeader(HttpHeaders.USER_AGENT), code,
                    QueryParameters.first(context, "resourceVersion"), received, Instant.now(),
                    (System.nanoTime() - started) / 1000).line());
        });
        context.next();
    }
}
