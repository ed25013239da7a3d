package io.watchgate.api;

import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.status.ApiException;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * What a read returns, as its Accept header asks: the objects themselves in JSON or (core types) protobuf, a
 * server-side Table, or metadata only (PartialObjectMetadata), each of the last two in meta.k8s.io {@code v1} or
 * {@code v1beta1}. Writes return the object, in JSON or protobuf.
 *
 * @param metaVersion the meta.k8s.io version for TABLE and METADATA, else null
 */
record Representation(Form form, String metaVersion) {

    enum Form { OBJECT, PROTOBUF, TABLE, METADATA, YAML }

    static final Representation OBJECT = new Representation(Form.OBJECT, null);
    static final Representation PROTOBUF = new Representation(Form.PROTOBUF, null);
    static final Representation YAML = new Representation(Form.YAML, null);

    /** The response's Content-Type. */
    String contentType() {
        return switch (form) {
            case OBJECT -> "application/json";
            case PROTOBUF -> ProtobufObjects.MEDIA_TYPE;
            case TABLE -> "application/json;as=Table;v=" + metaVersion + ";g=meta.k8s.io";
            case METADATA -> "application/json;as=PartialObjectMetadata;v=" + metaVersion + ";g=meta.k8s.io";
            case YAML -> MediaTypes.YAML_MEDIA_TYPE;
        };
    }

    String listContentType() {
        return form == Form.METADATA
                ? "application/json;as=PartialObjectMetadataList;v=" + metaVersion + ";g=meta.k8s.io"
                : contentType();
    }

    /**
     * The first acceptable representation of a read in the client's order; 406 when there is none.
     *
     * @param protobuf whether the type has a protobuf form
     */
    static Representation negotiate(HttpHeaders headers, boolean protobuf) {
        return negotiate(headers, protobuf, true, false);
    }

    /**
     * As {@link #negotiate}, for the read of one object, which may also be YAML ({@code application/yaml}), as
     * kube-apiserver serves it (a person reading an object, the live view's details among them).
     */
    static Representation negotiateOne(HttpHeaders headers, boolean protobuf) {
        return negotiate(headers, protobuf, true, true);
    }

    /** The first acceptable representation of a write's result: the object, in JSON or protobuf. */
    static Representation negotiateWritten(HttpHeaders headers, boolean protobuf) {
        return negotiate(headers, protobuf, false, false);
    }

    private static Representation negotiate(HttpHeaders headers, boolean protobuf, boolean read, boolean yaml) {
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        if (accept == null || accept.isBlank()) {
            return OBJECT;
        }
        for (MediaRange range : MediaRange.byPreference(accept)) {
            if (protobuf && range.type().equals(ProtobufObjects.MEDIA_TYPE) && range.as() == null) {
                return PROTOBUF;
            }
            if (yaml && range.type().equals(MediaTypes.YAML_MEDIA_TYPE) && range.as() == null) {
                return YAML;
            }
            if (!range.admitsJson()) {
                continue;
            }
            if (range.as() == null) {
                return OBJECT;
            }
            if (read && range.isMetaKind("Table")) {
                return new Representation(Form.TABLE, range.version());
            }
            if (read && (range.isMetaKind("PartialObjectMetadata") || range.isMetaKind("PartialObjectMetadataList"))) {
                return new Representation(Form.METADATA, range.version());
            }
        }
        throw new ApiException(406, "NotAcceptable", "the server was unable to respond with a content type that "
                + "the client supports (Accept: " + accept + "); supported: application/json"
                + (protobuf ? ", " + ProtobufObjects.MEDIA_TYPE : "") + (yaml ? ", " + MediaTypes.YAML_MEDIA_TYPE : "")
                + (read ? ", and as=Table or as=PartialObjectMetadata(List) of meta.k8s.io v1 and v1beta1" : ""));
    }
}
