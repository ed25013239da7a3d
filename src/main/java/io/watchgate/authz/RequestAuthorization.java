package io.watchgate.authz;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.Identities;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.QueryParameters;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusResponses;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Allows each request on the API port, or refuses it with kube-apiserver's 403, by its user and its one parse
 * ({@code RequestInfo}): before a body is read or anything served. A watch is authorized here once, as it starts.
 */
@ApplicationScoped
public class RequestAuthorization {

    private final Authorization authorization;
    private final Refusals refusals;

    RequestAuthorization(Authorization authorization, Refusals refusals) {
        this.authorization = authorization;
        this.refusals = refusals;
    }

    void install(@Observes Router router) {
        if (!authorization.alwaysAllows()) {
            router.route().order(RouteOrder.AUTHORIZATION.order()).handler(this::authorize);
        }
    }

    private void authorize(RoutingContext context) {
        if (QueryParameters.spelledOtherwise(context, "fieldSelector")) {
            // the name authorized is read from fieldSelector; the list must not read another spelling of it
            StatusResponses.end(context.response(), ApiException.badRequest("fieldSelector is spelled another way"
                    + " too in the query; send it once, as fieldSelector"));
            return;
        }
        Attributes request = Attributes.of(Identities.of(context), RequestInfos.of(context));
        Decision decision = authorization.authorize(request);
        if (decision.allowed()) {
            context.next();
            return;
        }
        refusals.count(Refusals.Reason.FORBIDDEN);
        StatusResponses.end(context.response(), Forbidden.of(request, decision.reason()));
    }
}
