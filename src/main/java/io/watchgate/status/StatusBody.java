package io.watchgate.status;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Renders a {@link ApiException} as a Kubernetes {@code Status} object. */
public final class StatusBody {

    private StatusBody() {
    }

    public static ObjectNode of(ApiException e) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode status = json.objectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        ObjectNode metadata = status.putObject("metadata");
        if (e.continueToken() != null) {
            metadata.put("continue", e.continueToken());
        }
        status.put("status", "Failure");
        status.put("message", e.getMessage());
        status.put("reason", e.reason());
        ApiException.Details details = e.details();
        if (details.name() != null || details.kind() != null || !details.causes().isEmpty()
                || e.retryAfterSeconds() != null) {
            ObjectNode d = status.putObject("details");
            if (details.name() != null) {
                d.put("name", details.name());
            }
            if (details.group() != null) {
                d.put("group", details.group());
            }
            if (details.kind() != null) {
                d.put("kind", details.kind());
            }
            if (!details.causes().isEmpty()) {
                var causes = d.putArray("causes");
                for (Cause cause : details.causes()) {
                    ObjectNode c = causes.addObject();
                    c.put("reason", cause.reason());
                    c.put("message", cause.message());
                    if (cause.field() != null) {
                        c.put("field", cause.field());
                    }
                }
            }
            if (e.retryAfterSeconds() != null) {
                d.put("retryAfterSeconds", e.retryAfterSeconds());
            }
        }
        status.put("code", e.code());
        return status;
    }
}
