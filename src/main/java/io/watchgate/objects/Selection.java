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
        if (!fields.matches(object)) {
            return false;
        }
        if (labels.isEverything()) {
            return true;
        }
        // read in place: a watch filters every event through this, and a copy of the labels per event is garbage
        JsonNode present = object.path("metadata").path("labels");
        return labels.matches(key -> {
            JsonNode value = present.get(key);
            return value == null ? null : value.asText();
        });
    }
}
