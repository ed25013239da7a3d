package io.watchgate.api;

import io.watchgate.status.ApiException;
import io.watchgate.watch.WireFormat;

/** Which wire format a watch's Accept header asks for. */
final class WatchMediaTypes {

    private WatchMediaTypes() {
    }

    /**
     * The acceptable wire format the client prefers most (by q-value, then by its order): {@code text/event-stream}
     * (what EventSource sends) gets Server-Sent Events, plain JSON gets JSON lines; nothing acceptable is 406.
     */
    static WireFormat negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return WireFormat.JSON_LINES;
        }
        WireFormat best = null;
        double bestQuality = 0;
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].trim().toLowerCase();
            double quality = 1;
            boolean asOtherKind = false;
            for (int i = 1; i < parts.length; i++) {
                String parameter = parts[i].trim().toLowerCase();
                asOtherKind |= parameter.startsWith("as=");
                if (parameter.startsWith("q=")) {
                    quality = parseQuality(parameter.substring(2));
                }
            }
            WireFormat format = null;
            if (type.equals("text/event-stream")) {
                format = WireFormat.SERVER_SENT_EVENTS;
            } else if (!asOtherKind && (type.equals("application/json") || type.equals("application/*")
                    || type.equals("*/*"))) {
                // a Table (as=Table) is not served yet: kubectl offers plain JSON after it
                format = WireFormat.JSON_LINES;
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
