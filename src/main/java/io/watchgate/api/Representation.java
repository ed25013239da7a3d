package io.watchgate.api;

import io.watchgate.status.ApiException;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * What a read returns, as its Accept header asks: the objects themselves, a server-side Table, or metadata only
 * (PartialObjectMetadata), each of the last two in meta.k8s.io {@code v1} or {@code v1beta1}.
 *
 * @param metaVersion the meta.k8s.io version for TABLE and METADATA, else null
 */
record Representation(Form form, String metaVersion) {

    enum Form { OBJECT, TABLE, METADATA }

    static final Representation OBJECT = new Representation(Form.OBJECT, null);

    /** The response's Content-Type. */
    String contentType() {
        return switch (form) {
            case OBJECT -> "application/json";
            case TABLE -> "application/json;as=Table;v=" + metaVersion + ";g=meta.k8s.io";
            case METADATA -> "application/json;as=PartialObjectMetadata;v=" + metaVersion + ";g=meta.k8s.io";
        };
    }

    String listContentType() {
        return form == Form.METADATA
                ? "application/json;as=PartialObjectMetadataList;v=" + metaVersion + ";g=meta.k8s.io"
                : contentType();
    }

    /** The first acceptable representation in the client's order; 406 when there is none. */
    static Representation negotiate(HttpHeaders headers) {
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        if (accept == null || accept.isBlank()) {
            return OBJECT;
        }
        for (MediaRange range : MediaRange.parse(accept)) {
            if (!range.admitsJson()) {
                continue;
            }
            if (range.as() == null) {
                return OBJECT;
            }
            if (range.isMetaKind("Table")) {
                return new Representation(Form.TABLE, range.version());
            }
            if (range.isMetaKind("PartialObjectMetadata") || range.isMetaKind("PartialObjectMetadataList")) {
                return new Representation(Form.METADATA, range.version());
            }
        }
        throw new ApiException(406, "NotAcceptable", "the server was unable to respond with a content type that "
                + "the client supports (Accept: " + accept + "); supported: application/json, and for reads "
                + "as=Table or as=PartialObjectMetadata(List) of meta.k8s.io v1 and v1beta1");
    }
}
