package io.watchgate.api;

import io.watchgate.status.ApiException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses a body larger than the configured limit before it is read, with 413 and a Status. (Bodies sent
 * without Content-Length are also capped by {@code quarkus.http.limits.max-body-size}.)
 */
public class BodyLimitFilter {

    private final ApiConfig config;

    BodyLimitFilter(ApiConfig config) {
        this.config = config;
    }

    @ServerRequestFilter(preMatching = true)
    public Response checkLength(ContainerRequestContext request) {
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        if (length == null) {
            return null;
        }
        long bytes;
        try {
            bytes = Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return StatusMappers.toResponse(ApiException.badRequest("invalid Content-Length: " + length));
        }
        if (bytes > config.maxBodyBytes()) {
            return StatusMappers.toResponse(new ApiException(413, "RequestEntityTooLarge",
                    "the request body of " + bytes + " bytes is larger than the limit of " + config.maxBodyBytes()
                            + " bytes"));
        }
        return null;
    }
}
