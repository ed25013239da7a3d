package io.watchgate.api;

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
     * lines of one-row Tables; nothing acceptable is 406.
     */
    static Negotiated negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return new Negotiated(WireFormat.JSON_LINES, null);
        }
        Negotiated best = null;
        double bestQuality = 0;
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].trim().toLowerCase();
            double quality = 1;
            String as = null;
            String group = null;
            String version = null;
            for (int i = 1; i < parts.length; i++) {
                String parameter = parts[i].trim();
                if (parameter.startsWith("as=")) {
                    as = parameter.substring(3);
                } else if (parameter.startsWith("g=")) {
                    group = parameter.substring(2);
                } else if (parameter.startsWith("v=")) {
                    version = parameter.substring(2);
                } else if (parameter.startsWith("q=")) {
                    quality = parseQuality(parameter.substring(2));
                }
            }
            boolean json = type.equals("application/json") || type.equals("application/*") || type.equals("*/*");
            Negotiated format = null;
            if (type.equals("text/event-stream")) {
                format = new Negotiated(WireFormat.SERVER_SENT_EVENTS, null);
            } else if (json && as == null) {
                format = new Negotiated(WireFormat.JSON_LINES, null);
            } else if (json && as.equals("Table") && "meta.k8s.io".equals(group)
                    && ("v1".equals(version) || "v1beta1".equals(version))) {
                format = new Negotiated(WireFormat.JSON_LINES, version); // kubectl get --watch
            }
            if (format != null && quality > bestQuality) {
                best = format;
                bestQuality = quality;
            }
        }
        if (best != null) {
            return best;
        }
        throw new ApiException(406, "NotAcceptable", "the server was unable to respond with a content type that "
                + "the client supports (Accept: " + accept + "); a watch is served as application/json or "
                + "text/event-stream");
    }

    private static double parseQuality(String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
