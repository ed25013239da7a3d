package io.watchgate.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;

/** Request bodies: read up to the configured limit, and parsed as JSON. */
@ApplicationScoped
public class RequestBodies {

    private final Json json;
    private final ApiConfig config;

    RequestBodies(Json json, ApiConfig config) {
        this.json = json;
        this.config = config;
    }

    /**
     * Reads a request body, but never more than the configured limit: a longer one (sent without
     * Content-Length, so not refused up front by {@link BodyLimit}) is 413 RequestEntityTooLarge.
     */
    public byte[] read(InputStream body) {
        if (body == null) {
            return new byte[0];
        }
        try {
            byte[] bytes = body.readNBytes(config.maxBodyBytes() + 1);
            if (bytes.length > config.maxBodyBytes()) {
                throw new ApiException(413, "RequestEntityTooLarge", "the request body is larger than the limit of "
                        + config.maxBodyBytes() + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        }
    }

    /** The body as one JSON value (400 when it is not one, 413 when it is too large). */
    public JsonNode json(InputStream body) {
        return json.parse(read(body));
    }

    public JsonNode json(byte[] body) {
        return json.parse(body);
    }
}
