package io.watchgate.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import io.watchgate.validation.JsonShape;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.IOException;
import java.io.InputStream;

/** Request bodies: read up to the configured limit, and parsed as JSON. */
@ApplicationScoped
public class RequestBodies {

    private final Json json;
    private final ApiConfig config;
    private final ProtobufObjects protobuf;

    RequestBodies(Json json, ApiConfig config, ProtobufObjects protobuf) {
        this.json = json;
        this.config = config;
        this.protobuf = protobuf;
    }

    /**
     * An object body of {@code type}, in JSON or, for core types, in Kubernetes' protobuf encoding (what kubectl's
     * typed commands send); 415 for anything else.
     */
    public JsonNode object(ResourceType type, HttpHeaders headers, byte[] body) {
        String contentType = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (contentType != null && contentType.split(";", 2)[0].trim().equalsIgnoreCase(ProtobufObjects.MEDIA_TYPE)) {
            if (!protobuf.serves(type)) {
                throw new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown "
                        + "format - accepted media types include: application/json (" + type.resource()
                        + " are not served in protobuf)");
            }
            JsonNode object = protobuf.decode(type, read(body));
            JsonShape.requireStorable(object);
            return object;
        }
        MediaTypes.requireJsonBody(headers);
        return json(read(body));
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
                throw tooLarge();
            }
            return bytes;
        } catch (IOException e) {
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        }
    }

    /**
     * A body read whole before the request got here (Quarkus bounds it by {@code quarkus.http.limits.max-body-size}):
     * 413 RequestEntityTooLarge when over the configured limit.
     */
    public byte[] read(byte[] body) {
        if (body == null) {
            return new byte[0];
        }
        if (body.length > config.maxBodyBytes()) {
            throw tooLarge();
        }
        return body;
    }

    public JsonNode json(byte[] body) {
        return json.parse(body);
    }

    private ApiException tooLarge() {
        return new ApiException(413, "RequestEntityTooLarge", "the request body is larger than the limit of "
                + config.maxBodyBytes() + " bytes");
    }
}
