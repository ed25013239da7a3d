package io.watchgate.types;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * events.k8s.io/v1 Events are core v1 Events in kube-apiserver's storage, converted field by field (its
 * pkg/apis/events/v1 conversion): {@code regarding} is {@code involvedObject}, {@code note} is {@code message},
 * {@code reportingController} is {@code reportingComponent}, and the {@code deprecated*} fields are the core Event's
 * source, timestamps and count; the rest have one name in both. Fields come out in the order of the version's Go
 * struct, as kube writes them.
 */
final class EventConversion implements SharedStorage {

    /** events.k8s.io/v1 field to core v1 field, in events.k8s.io/v1's order. */
    private static final Map<String, String> EVENTS_TO_CORE = ordered(
            "eventTime", "eventTime",
            "series", "series",
            "reportingController", "reportingComponent",
            "reportingInstance", "reportingInstance",
            "action", "action",
            "reason", "reason",
            "regarding", "involvedObject",
            "related", "related",
            "note", "message",
            "type", "type",
            "deprecatedSource", "source",
            "deprecatedFirstTimestamp", "firstTimestamp",
            "deprecatedLastTimestamp", "lastTimestamp",
            "deprecatedCount", "count");

    /** core v1 field to events.k8s.io/v1 field, in core v1's order. */
    private static final Map<String, String> CORE_TO_EVENTS = ordered(
            "involvedObject", "regarding",
            "reason", "reason",
            "message", "note",
            "source", "deprecatedSource",
            "firstTimestamp", "deprecatedFirstTimestamp",
            "lastTimestamp", "deprecatedLastTimestamp",
            "count", "deprecatedCount",
            "type", "type",
            "eventTime", "eventTime",
            "series", "series",
            "action", "action",
            "related", "related",
            "reportingComponent", "reportingController",
            "reportingInstance", "reportingInstance");

    private final String apiVersion;
    private final String storedApiVersion;
    private final String storedResource;

    EventConversion(String apiVersion, String storedApiVersion, String storedResource) {
        this.apiVersion = apiVersion;
        this.storedApiVersion = storedApiVersion;
        this.storedResource = storedResource;
    }

    @Override
    public String resource() {
        return storedResource;
    }

    @Override
    public ObjectNode shown(ObjectNode stored) {
        return renamed(stored, apiVersion, CORE_TO_EVENTS);
    }

    @Override
    public ObjectNode stored(ObjectNode shown) {
        return renamed(shown, storedApiVersion, EVENTS_TO_CORE);
    }

    private static ObjectNode renamed(ObjectNode from, String apiVersion, Map<String, String> names) {
        ObjectNode to = from.objectNode();
        to.put("apiVersion", apiVersion);
        to.set("kind", from.path("kind").isMissingNode() ? to.textNode("Event") : from.get("kind").deepCopy());
        if (from.has("metadata")) {
            to.set("metadata", from.get("metadata").deepCopy());
        }
        names.forEach((name, renamed) -> {
            JsonNode value = from.get(name);
            if (value != null) {
                to.set(renamed, value.deepCopy());
            }
        });
        // what neither version declares is kept as sent: a write's validation judges it
        for (Iterator<Map.Entry<String, JsonNode>> fields = from.fields(); fields.hasNext();) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!names.containsKey(field.getKey()) && !to.has(field.getKey())) {
                to.set(field.getKey(), field.getValue().deepCopy());
            }
        }
        return to;
    }

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
