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
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].trim().toLowerCase();
            String as = null;
            String group = null;
            String version = null;
            for (int i = 1; i < parts.length; i++) {
                String[] parameter = parts[i].trim().split("=", 2);
                if (parameter.length == 2) {
                    switch (parameter[0].trim()) {
                        case "as" -> as = parameter[1].trim();
                        case "g" -> group = parameter[1].trim();
                        case "v" -> version = parameter[1].trim();
                        default -> {
                        }
                    }
                }
            }
            boolean json = type.equals("application/json") || type.equals("application/*") || type.equals("*/*");
            if (!json) {
                continue;
            }
            if (as == null) {
                return OBJECT;
            }
            boolean meta = "meta.k8s.io".equals(group) && ("v1".equals(version) || "v1beta1".equals(version));
            if (meta && as.equals("Table")) {
                return new Representation(Form.TABLE, version);
            }
            if (meta && (as.equals("PartialObjectMetadata") || as.equals("PartialObjectMetadataList"))) {
                return new Representation(Form.METADATA, version);
            }
        }
        throw new ApiException(406, "NotAcceptable", "the server was unable to respond with a content type that "
                + "the client supports (Accept: " + accept + "); supported: application/json, and for reads "
                + "as=Table or as=PartialObjectMetadata(List) of meta.k8s.io v1 and v1beta1");
    }
}
