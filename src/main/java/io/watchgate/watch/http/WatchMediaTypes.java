package io.watchgate.watch.http;

import io.watchgate.api.MediaRange;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.status.ApiException;
import io.watchgate.watch.WireFormat;

/** Which wire format, and which representation of objects, a watch's Accept header asks for. */
final class WatchMediaTypes {

    /**
     * @param tableVersion the meta.k8s.io version of the one-row Tables the events carry, or null for the objects
     */
    record Negotiated(WireFormat format, String tableVersion) {
    }

    private WatchMediaTypes() {
    }

    /**
     * The acceptable wire format the client prefers most (by q-value, then by its order): {@code text/event-stream}
     * (what EventSource sends) gets Server-Sent Events, plain JSON gets JSON lines, a meta.k8s.io Table gets JSON
     * lines of one-row Tables, protobuf (for types that have a protobuf form) gets Kubernetes' length-prefixed
     * protobuf stream; nothing acceptable is 406.
     *
     * <p>An event stream carries one-row Tables when its media range says {@code as=Table;g=meta.k8s.io;v=v1} or,
     * since an EventSource cannot set its Accept header, when the query says {@code as=Table} (watchgate's own
     * parameter, meaning the same; kube-apiserver has no event streams). Other watches ignore the parameter, as
     * they did before it meant anything.
     *
     * @param asQuery the {@code as} query parameter, or null
     */
    static Negotiated negotiate(String accept, boolean protobuf, String asQuery) {
        if (accept == null || accept.isBlank()) {
            return new Negotiated(WireFormat.JSON_LINES, null);
        }
        for (MediaRange range : MediaRange.byPreference(accept)) {
            if (protobuf && range.type().equals(ProtobufObjects.MEDIA_TYPE) && range.as() == null) {
                return new Negotiated(WireFormat.PROTOBUF_STREAM, null); // client-go's informers
            } else if (range.type().equals("text/event-stream") && (range.as() == null || range.isMetaKind("Table"))) {
                return new Negotiated(WireFormat.SERVER_SENT_EVENTS,
                        range.as() != null ? range.version() : tableOf(asQuery));
            } else if (range.admitsJson() && range.as() == null) {
                return new Negotiated(WireFormat.JSON_LINES, null);
            } else if (range.admitsJson() && range.isMetaKind("Table")) {
                return new Negotiated(WireFormat.JSON_LINES, range.version()); // kubectl get --watch
            }
        }
        throw new ApiException(406, "NotAcceptable", "the server was unable to respond with a content type that "
                + "the client supports (Accept: " + accept + "); a watch is served as application/json, "
                + (protobuf ? ProtobufObjects.MEDIA_TYPE + ", " : "") + "or text/event-stream");
    }

    private static String tableOf(String asQuery) {
        if (asQuery == null) {
            return null;
        }
        if (!asQuery.equals("Table")) {
            String shown = asQuery.length() > 64 ? asQuery.substring(0, 64) + "..." : asQuery;
            throw ApiException.badRequest("as: Unsupported value: \"" + shown + "\": supported values: \"Table\""
                    + " (an event stream of one-row meta.k8s.io/v1 Tables)");
        }
        return "v1";
    }
}
