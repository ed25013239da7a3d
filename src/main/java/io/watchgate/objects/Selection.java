package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.selector.FieldSelector;
import io.watchgate.selector.LabelSelector;
import io.watchgate.selector.SelectorException;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import java.util.HashMap;
import java.util.Map;

/** A label selector and a field selector together: which objects a list, delete or watch is about. */
public record Selection(LabelSelector labels, FieldSelector fields) {

    public static Selection parse(ResourceType type, String labelSelector, String fieldSelector) {
        Map<String, String> fieldLabels = new HashMap<>(type.fieldLabels());
        fieldLabels.put("metadata.name", "/metadata/name");
        fieldLabels.put("metadata.namespace", "/metadata/namespace");
        try {
            return new Selection(LabelSelector.parse(labelSelector), FieldSelector.parse(fieldSelector, fieldLabels));
        } catch (SelectorException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }

    public boolean isEverything() {
        return labels.isEverything() && fields.isEverything();
    }

    public boolean matches(ObjectNode object) {
        return fields.matches(object) && labels.matches(labelsOf(object));
    }

    private static Map<String, String> labelsOf(ObjectNode object) {
        JsonNode labels = object.path("metadata").path("labels");
        if (!labels.isObject() || labels.isEmpty()) {
            return Map.of();
        }
        Map<String, String> map = new HashMap<>();
        labels.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }
}
