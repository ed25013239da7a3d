package io.watchgate.api;

import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.status.ApiException;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.Locale;

/** Content negotiation: JSON, YAML or protobuf in, JSON out, with Kubernetes' 406 and 415 answers otherwise. */
final class MediaTypes {

    private MediaTypes() {
    }

    /** 406 unless the Accept header allows plain JSON (kubectl offers Table first, then application/json). */
    static void requireJsonAcceptable(HttpHeaders headers) {
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        if (accept == null || accept.isBlank()) {
            return;
        }
        for (MediaRange range : MediaRange.byPreference(accept)) {
            if (range.admitsJson() && range.as() == null) {
                return;
            }
        }
        throw new ApiException(406, "NotAcceptable", "the server was unable to respond with a content type that "
                + "the client supports (Accept: " + accept + "); supported: application/json");
    }

    /** What a write's body is written in, by its declared Content-Type. */
    enum BodyFormat {
        JSON, YAML, PROTOBUF
    }

    static final String YAML_MEDIA_TYPE = "application/yaml";

    /**
     * The format of a write's body, as kube-apiserver reads them: JSON, YAML, or (where {@code protobuf}) Kubernetes'
     * protobuf; 415 for any other Content-Type and for none. A missing type matters: a page of another site can make
     * a browser send a body only as text/plain, a form or untyped (a Blob), without asking the server first, so
     * a write that read those would be one any visited page could make.
     */
    static BodyFormat bodyFormat(HttpHeaders headers, boolean protobuf) {
        String contentType = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        String bare = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        switch (bare) {
            case "application/json":
                return BodyFormat.JSON;
            case YAML_MEDIA_TYPE:
                return BodyFormat.YAML;
            case ProtobufObjects.MEDIA_TYPE:
                if (protobuf) {
                    return BodyFormat.PROTOBUF;
                }
                break;
            default:
                break;
        }
        throw unsupportedBody(contentType, protobuf);
    }

    static ApiException unsupportedBody(String contentType, boolean protobuf) {
        String shown = contentType == null || contentType.isBlank() ? "none"
                : contentType.length() > 100 ? contentType.substring(0, 100) + "..." : contentType;
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
                + "accepted media types include: application/json, " + YAML_MEDIA_TYPE
                + (protobuf ? ", " + ProtobufObjects.MEDIA_TYPE : "") + " (Content-Type: " + shown + ")");
    }
}
