package io.watchgate.api;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.request.RouteOrder;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusBody;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Refuses request bodies that announce a length over the configured limit with 413 and a Status, before
 * reading them. (Bodies without Content-Length are refused by {@link RequestBodies} once read: write bodies
 * whole, up to Quarkus' outer cap, and the others at the limit.)
 */
@ApplicationScoped
public class BodyLimit {

    private final ApiConfig config;

    BodyLimit(ApiConfig config) {
        this.config = config;
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.BODY_LIMIT.order()).handler(this::checkDeclaredLength);
    }

    private void checkDeclaredLength(RoutingContext context) {
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null) {
            try {
                long bytes = Long.parseLong(length.trim());
                if (bytes > config.maxBodyBytes()) {
                    reply(context, tooLarge("body (" + bytes + " bytes)"));
                    return;
                }
            } catch (NumberFormatException e) {
                reply(context, ApiException.badRequest("invalid Content-Length: " + length));
                return;
            }
        }
        context.next();
    }

    private ApiException tooLarge(String what) {
        return new ApiException(413, "RequestEntityTooLarge", "the request " + what + " is larger than the limit of "
                + config.maxBodyBytes() + " bytes");
    }

    static void reply(RoutingContext context, ApiException e) {
        context.response()
                .setStatusCode(e.code())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        if (context.request().version() != HttpVersion.HTTP_2) {
            context.response().putHeader(HttpHeaders.CONNECTION, "close"); // the body is left unread
        }
        context.response().end(StatusBody.of(e).toString());
    }
}
