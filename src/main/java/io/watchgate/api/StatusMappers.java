package io.watchgate.api;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusBody;
import io.watchgate.store.StoreException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every error leaves as a Kubernetes {@code Status}; nothing reaches a client as a stack trace. */
public class StatusMappers {

    private static final Logger LOG = Logger.getLogger(StatusMappers.class);

    @ServerExceptionMapper
    public Response apiException(ApiException e, HttpServerRequest request) {
        Response.ResponseBuilder response = statusResponse(e);
        if ((e.code() == 413 || e.code() == 415) && request.version() != HttpVersion.HTTP_2) {
            // the body was not (all) read: close rather than take in the rest of it (HTTP/1 only; HTTP/2
            // forbids the header and ends just the stream)
            response.header("Connection", "close");
        }
        return response.build();
    }

    @ServerExceptionMapper
    public Response compacted(StoreException.Compacted e) {
        return toResponse(ApiException.expired("too old resource version: " + e.requested() + " (" + e.oldest() + ")"));
    }

    /** The server is short of memory: nothing changed, and the same write may succeed shortly. */
    @ServerExceptionMapper
    public Response overloaded(StoreException.Overloaded e) {
        return toResponse(new ApiException(429, "TooManyRequests", e.getMessage(), ApiException.Details.NONE,
                e.retryAfterSeconds(), null));
    }

    /** The log could not take the write: nothing changed, and the client may try again. */
    @ServerExceptionMapper
    public Response unavailable(StoreException.Unavailable e) {
        return toResponse(new ApiException(503, "ServiceUnavailable", e.getMessage(), ApiException.Details.NONE,
                5, null));
    }

    /** etcd did not answer in time: as kube-apiserver, 504 Timeout, which says the write may have been made. */
    @ServerExceptionMapper
    public Response uncertain(StoreException.Uncertain e) {
        return toResponse(new ApiException(504, "Timeout", e.getMessage()));
    }

    @ServerExceptionMapper
    public Response tooLarge(StoreException.TooLarge e) {
        return toResponse(new ApiException(413, "RequestEntityTooLarge", e.getMessage()));
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        int code = e.getResponse().getStatus();
        return toResponse(switch (code) {
            case 404 -> ApiException.noSuchPath();
            case 405 -> new ApiException(405, "MethodNotAllowed",
                    "the server does not allow this method on the requested resource");
            case 406 -> new ApiException(406, "NotAcceptable", "the server was unable to respond with a content "
                    + "type that the client supports");
            case 413 -> new ApiException(413, "RequestEntityTooLarge", "the request body is too large");
            case 415 -> new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown "
                    + "format - accepted media types include: application/json");
            default -> code >= 500 ? internal(e)
                    : new ApiException(code, code == 400 ? "BadRequest" : "", e.getMessage());
        });
    }

    /** A client that left, or was cut off, in the middle of a streamed body: nothing failed on the server. */
    @ServerExceptionMapper
    public Response notSent(ResponseBodies.NotSent e) {
        LOG.debugf("%s: %s", e.getMessage(), e.getCause());
        return Response.serverError().build(); // the response is under way: this only ends it
    }

    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER + 1000)
    public Response unexpected(Throwable e) {
        return toResponse(internal(e));
    }

    private static ApiException internal(Throwable e) {
        LOG.error("request failed on the server", e);
        return new ApiException(500, "InternalError", "an error on the server has prevented the request from "
                + "succeeding: " + e.getClass().getSimpleName());
    }

    static Response toResponse(ApiException e) {
        return statusResponse(e).build();
    }

    private static Response.ResponseBuilder statusResponse(ApiException e) {
        Response.ResponseBuilder response = Response.status(e.code())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(StatusBody.of(e).toString());
        if (e.retryAfterSeconds() != null) {
            response.header("Retry-After", e.retryAfterSeconds());
        }
        return response;
    }
}
