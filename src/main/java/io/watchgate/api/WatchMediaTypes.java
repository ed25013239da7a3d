package io.watchgate.api;

import io.watchgate.status.ApiException;
import io.watchgate.watch.WireFormat;

/** Which wire format a watch's Accept header asks for. */
final class WatchMediaTypes {

    private WatchMediaTypes() {
    }

    /**
     * {@code text/event-stream} (what EventSource sends) gets Server-Sent Events; anything that admits plain JSON
     * gets JSON lines; anything else is 406.
     */
    static WireFormat negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return WireFormat.JSON_LINES;
        }
        boolean json = false;
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            String type = parts[0].trim().toLowerCase();
            if (type.equals("text/event-stream")) {
                return WireFormat.SERVER_SENT_EVENTS;
            }
            boolean asOtherKind = false;
            for (int i = 1; i < parts.length; i++) {
                asOtherKind |= parts[i].trim().toLowerCase().startsWith("as=");
            }
            // a Table (as=Table) is not served yet: kubectl offers plain JSON after it
            if (!asOtherKind && (type.equals("application/json") || type.equals("application/*") || type.equals("*/*"))) {
                json = true;
            }
        }
        if (json) {
            return WireFormat.JSON_LINES;
        }
        throw new ApiException(406, "NotAcceptable", "the server was unable to respond with a content type that "
                + "the client supports (Accept: " + accept + "); a watch is served as application/json or "
                + "text/event-stream");
    }
}
