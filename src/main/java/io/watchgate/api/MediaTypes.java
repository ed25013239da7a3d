package io.watchgate.api;

import io.watchgate.status.ApiException;
import jakarta.ws.rs.core.HttpHeaders;

/** Content negotiation: JSON in, JSON out, with Kubernetes' 406 and 415 answers otherwise. */
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

    /** 415 unless the body is declared JSON (a missing Content-Type is taken as JSON). */
    static void requireJsonBody(HttpHeaders headers) {
        String contentType = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (contentType == null || contentType.isBlank()) {
            return;
        }
        String bare = contentType.split(";", 2)[0].trim().toLowerCase();
        if (!bare.equals("application/json")) {
            throw new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
                    + "accepted media types include: application/json (got " + contentType + ")");
        }
    }
}
