package io.watchgate.authz;

import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.Identities;
import io.watchgate.authn.session.BrowserSession;
import io.watchgate.authn.session.SessionCredentials;
import io.watchgate.authn.session.SessionsEnded;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfos;
import io.watchgate.status.ApiException;
import io.watchgate.watch.WatchGrant;
import io.watchgate.watch.fanout.WatchHubs;
import io.watchgate.authz.rbac.PermissionsReduced;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;

/**
 * The grant each watch goes on under: the decision that let it start, asked again when permissions may have been
 * taken away ({@link PermissionsReduced}), so that a watch whose binding was removed ends within moments instead of
 * running to its timeout, as it would in Kubernetes. A watch a browser started with its session cookie holds only as
 * long as the session: logout or expiry ends it too.
 */
@ApplicationScoped
public class WatchGrants {

    private final Authorization authorization;
    private final WatchHubs hubs;
    private final Clock clock;

    WatchGrants(Authorization authorization, WatchHubs hubs, Clock clock) {
        this.authorization = authorization;
        this.hubs = hubs;
        this.clock = clock;
    }

    /** The grant of the watch {@code context} asks for, which authorization has let start. */
    public WatchGrant of(RoutingContext context) {
        return of(context, RequestInfos.of(context));
    }

    /**
     * Authorizes one watch of a stream as the single watch it stands for: {@code watch} is the request it would be.
     *
     * @return the grant it goes on under
     * @throws ApiException 403, worded as for that single watch, when its user may not watch it
     */
    public WatchGrant authorize(RoutingContext context, RequestInfo watch) {
        Attributes request = Attributes.of(Identities.of(context), watch);
        Decision decision = authorization.authorize(request);
        if (!decision.allowed()) {
            throw Forbidden.of(request, decision.reason());
        }
        return of(context, watch);
    }

    private WatchGrant of(RoutingContext context, RequestInfo watch) {
        WatchGrant granted = rbacGrant(context, watch);
        BrowserSession session = SessionCredentials.of(context).orElse(null);
        if (session == null) {
            return granted;
        }
        return () -> session.active(clock.instant()) && granted.holds();
    }

    private WatchGrant rbacGrant(RoutingContext context, RequestInfo watch) {
        Attributes request = Attributes.of(Identities.of(context), watch);
        if (authorization.alwaysAllows() || request.user().isMaster()) {
            return WatchGrant.ALWAYS; // nothing RBAC says can take it away
        }
        return () -> authorization.authorize(request).allowed();
    }

    /** From any thread, once the policy in force may grant less than it did: open watches ask again. */
    void permissionsReduced(@Observes PermissionsReduced change) {
        if (!authorization.alwaysAllows()) {
            hubs.recheckGrants();
        }
    }

    /** From any thread, once browser sessions ended: the watches they started end too. */
    void sessionsEnded(@Observes SessionsEnded ended) {
        hubs.recheckGrants();
    }
}
