package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * What kube-apiserver's pkg/apis/core/validation/events.go checks of an Event written at events.k8s.io/v1: the
 * legacy rules every Event passes there (an Event with an eventTime names who reported it, the action and the reason,
 * each within 128 characters, and a note of at most 1 KiB), and the strict ones of that version: an eventTime, a type
 * of Normal or Warning, no deprecated fields on create, a series of two or more, and on update nothing but the
 * series and metadata changes. Field paths are kube's: it validates its internal Event, whose fields are named as
 * the core version names them (involvedObject, message, source, count).
 *
 * <p>Core v1 Events are left as sent: kube's legacy rules for them (an involved object in the Event's namespace)
 * would refuse what existing clients of this server write. Zero values compare as Go's do (missing, null, "", 0
 * and {} alike); timestamps compare as written.
 */
final class EventRules {

    private static final int REPORTING_INSTANCE_LIMIT = 128;
    private static final int ACTION_LIMIT = 128;
    private static final int REASON_LIMIT = 128;
    private static final int NOTE_LIMIT = 1024;
    private static final List<String> TYPES = List.of("Normal", "Warning");
    /** The fields an update may not change, by their events.k8s.io/v1 names, to the names kube's causes use. */
    private static final List<Map.Entry<String, String>> IMMUTABLE = List.of(
            Map.entry("regarding", "involvedObject"), Map.entry("reason", "reason"), Map.entry("note", "message"),
            Map.entry("deprecatedSource", "source"), Map.entry("deprecatedFirstTimestamp", "firstTimestamp"),
            Map.entry("deprecatedLastTimestamp", "lastTimestamp"), Map.entry("deprecatedCount", "count"),
            Map.entry("type", "type"), Map.entry("eventTime", "eventTime"), Map.entry("action", "action"),
            Map.entry("related", "related"), Map.entry("reportingController", "reportingController"),
            Map.entry("reportingInstance", "reportingInstance"));

    private EventRules() {
    }

    /** @param old the Event it replaces, or null on create */
    static void check(JsonNode event, JsonNode old, Causes causes) {
        legacy(event, causes);
        if (old == null) {
            series(event, causes);
            if (!present(event.path("eventTime"))) {
                causes.add(Cause.required("eventTime", ""));
            }
            String type = event.path("type").asText("");
            if (!TYPES.contains(type)) {
                causes.add(Cause.invalid("type", "", "has invalid value: " + type));
            }
            unset(event, "deprecatedFirstTimestamp", "firstTimestamp", causes);
            unset(event, "deprecatedLastTimestamp", "lastTimestamp", causes);
            if (event.path("deprecatedCount").asLong(0) != 0) {
                causes.add(Cause.invalid("count", "", "needs to be unset"));
            }
            JsonNode source = event.path("deprecatedSource");
            if (!source.path("component").asText("").isEmpty() || !source.path("host").asText("").isEmpty()) {
                causes.add(Cause.invalid("source", "", "needs to be unset"));
            }
            return;
        }
        if (!event.path("series").equals(old.path("series"))) {
            series(event, causes);
        }
        for (Map.Entry<String, String> field : IMMUTABLE) {
            if (!value(event, field.getKey()).equals(value(old, field.getKey()))) {
                causes.add(Cause.invalid(field.getValue(), value(event, field.getKey()), "field is immutable"));
            }
        }
    }

    private static void legacy(JsonNode event, Causes causes) {
        String namespace = event.path("metadata").path("namespace").asText("");
        String regarding = event.path("regarding").path("namespace").asText("");
        if (!present(event.path("eventTime"))) {
            // an Event of the old kind: about an object of its own namespace (or of none, from the default one)
            if (regarding.isEmpty() ? !namespace.isEmpty() && !namespace.equals("default")
                    : !regarding.equals(namespace)) {
                causes.add(Cause.invalid("involvedObject.namespace", regarding, "does not match event.namespace"));
            }
            return;
        }
        if (regarding.isEmpty() && !namespace.equals("default") && !namespace.equals("kube-system")) {
            causes.add(Cause.invalid("involvedObject.namespace", "", "does not match event.namespace"));
        }
        String controller = event.path("reportingController").asText("");
        if (controller.isEmpty()) {
            causes.add(Cause.required("reportingController", ""));
        } else {
            String problem = IdentifierSyntax.qualifiedNameProblem(controller);
            if (problem != null) {
                causes.add(Cause.invalid("reportingController", controller, problem));
            }
        }
        requiredWithin(event, "reportingInstance", "reportingInstance", REPORTING_INSTANCE_LIMIT, causes);
        requiredWithin(event, "action", "action", ACTION_LIMIT, causes);
        requiredWithin(event, "reason", "reason", REASON_LIMIT, causes);
        if (bytes(event.path("note").asText("")) > NOTE_LIMIT) {
            causes.add(Cause.invalid("message", "", "can have at most " + NOTE_LIMIT + " characters"));
        }
    }

    private static void series(JsonNode event, Causes causes) {
        JsonNode series = event.path("series");
        if (!series.isObject()) {
            return;
        }
        if (series.path("count").asLong(0) < 2) {
            causes.add(Cause.invalid("series.count", "", "should be at least 2"));
        }
        if (!present(series.path("lastObservedTime"))) {
            causes.add(Cause.required("series.lastObservedTime", ""));
        }
    }

    private static void requiredWithin(JsonNode event, String field, String path, int limit, Causes causes) {
        String value = event.path(field).asText("");
        if (value.isEmpty()) {
            causes.add(Cause.required(path, ""));
        } else if (bytes(value) > limit) {
            causes.add(Cause.invalid(path, "", "can have at most " + limit + " characters"));
        }
    }

    private static void unset(JsonNode event, String field, String path, Causes causes) {
        if (present(event.path(field))) {
            causes.add(Cause.invalid(path, "", "needs to be unset"));
        }
    }

    /** Kube's limits count bytes of UTF-8 (Go's len), not characters. */
    private static int bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8).length;
    }

    private static boolean present(JsonNode value) {
        return !value.isMissingNode() && !value.isNull() && !value.asText("").isEmpty();
    }

    /**
     * A field's value, with every zero value alike: kube compares Go values, where a missing field, null, "", 0 and
     * an empty struct are one.
     */
    private static JsonNode value(JsonNode event, String field) {
        JsonNode value = event.path(field);
        boolean zero = value.isNull() || value.isTextual() && value.asText().isEmpty()
                || value.isNumber() && value.asDouble() == 0 || value.isContainerNode() && value.isEmpty();
        return zero ? MissingNode.getInstance() : value;
    }
}
