package io.watchgate.api;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.watchgate.request.RouteOrder;
import io.watchgate.status.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * kube-apiserver does not serve OPTIONS (without CORS configured); neither does watchgate, which would otherwise
 * answer an empty 200 with a wrong Allow header.
 */
@ApplicationScoped
public class OptionsRequests {

    void install(@Observes Router router) {
        router.route().method(HttpMethod.OPTIONS).order(RouteOrder.OPTIONS.order()).handler(context -> BodyLimit.reply(
                context, new ApiException(405, "MethodNotAllowed",
                        "the server does not allow this method on the requested resource")));
    }
}
