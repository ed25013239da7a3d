package io.watchgate.status;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * An {@link ApiException} that escapes a Vert.x route (RESTEasy's have mappers of their own: {@code StatusMappers})
 * is answered as its Status, not as Quarkus' 500 with a stack: a route that refuses by throwing still refuses right.
 */
@ApplicationScoped
public class RouteFailures {

    void install(@Observes Router router) {
        router.route().failureHandler(this::answer);
    }

    private void answer(RoutingContext context) {
        if (context.failure() instanceof ApiException e && !context.response().headWritten()) {
            StatusResponses.end(context.response(), e);
        } else {
            context.next();
        }
    }
}
