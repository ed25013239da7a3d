package io.watchgate.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.metrics.Refusals;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import io.watchgate.validation.JsonShape;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.IOException;
import java.io.InputStream;

/** Request bodies: read up to the configured limit, and parsed by their declared media type. */
@ApplicationScoped
public class RequestBodies {

    private final Json json;
    private final ApiConfig config;
    private final ProtobufObjects protobuf;
    private final Refusals refusals;

    RequestBodies(Json json, ApiConfig config, ProtobufObjects protobuf, Refusals refusals) {
        this.refusals = refusals;
        this.json = json;
        this.config = config;
        this.protobuf = protobuf;
    }

    /**
     * An object body of {@code type}: JSON, YAML, or, for core types, Kubernetes' protobuf encoding (what kubectl's
     * typed commands send); 415 for anything else, a body without a Content-Type included (see
     * {@link MediaTypes#bodyFormat}). YAML is parsed here too, so a YAML body must come through a worker thread
     * ({@code ResourceApi} routes it to one).
     */
    public JsonNode object(ResourceType type, HttpHeaders headers, byte[] body) {
        return switch (format(headers, protobuf.serves(type))) {
            case PROTOBUF -> {
                JsonNode object = protobuf.decode(type, read(body));
                JsonShape.requireStorable(object);
                yield object;
            }
            case YAML -> json.parseYaml(read(body));
            case JSON -> json(read(body));
        };
    }

    /** A DeleteOptions body, in JSON or YAML (called on a worker thread); 415 for any other format, or none. */
    public JsonNode options(HttpHeaders headers, byte[] body) {
        return format(headers, false) == MediaTypes.BodyFormat.YAML ? json.parseYaml(body) : json(body);
    }

    /** The refusal of a patch's media type, counted as every refused media type is. */
    public ApiException unsupported(ApiException refusal) {
        refusals.count(Refusals.Reason.UNSUPPORTED_MEDIA_TYPE);
        return refusal;
    }

    private MediaTypes.BodyFormat format(HttpHeaders headers, boolean protobufServed) {
        try {
            return MediaTypes.bodyFormat(headers, protobufServed);
        } catch (ApiException e) {
            throw unsupported(e);
        }
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
