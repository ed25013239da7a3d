package io.watchgate.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes strategic merge patch, as kubectl sends it for built-in types: a merge patch in which lists with
 * a patch merge key merge element by element, lists of primitives with the merge strategy merge as sets, and
 * the directives {@code $patch} (replace, delete, merge), {@code $retainKeys},
 * {@code $setElementOrder/<list>} and {@code $deleteFromPrimitiveList/<list>} are honoured.
 */
final class StrategicMergePatch {

    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
    /** A merge key of "" marks a list of primitives merged as a set. */
    static final String PRIMITIVE_SET = "";

    private final Map<String, String> mergeKeys;

    StrategicMergePatch(Map<String, String> mergeKeys) {
        this.mergeKeys = mergeKeys;
    }

    ObjectNode apply(ObjectNode target, ObjectNode patch) {
        JsonNode result = mergeObject(target, patch, "");
        if (result == null || !result.isObject()) {
            throw ApiException.badRequest("the strategic merge patch removed the whole object");
        }
        return (ObjectNode) result;
    }

    /** Returns the merged object, or null when the patch deletes it. */
    private JsonNode mergeObject(ObjectNode target, ObjectNode patch, String path) {
        String directive = patch.path(PATCH).asText("merge");
        switch (directive) {
            case "delete":
                return null;
            case "replace": {
                ObjectNode replacement = patch.deepCopy();
                replacement.remove(PATCH);
                return replacement;
            }
            case "merge":
                break;
            default:
                throw ApiException.badRequest("unknown patch type: " + directive + " in " + PATCH + " directive");
        }
        ObjectNode result = target == null ? JsonNodeFactory.instance.objectNode() : target;
        for (var it = patch.fields(); it.hasNext();) {
            var member = it.next();
            String name = member.getKey();
            JsonNode value = member.getValue();
            if (name.equals(PATCH) || name.equals(RETAIN_KEYS) || name.startsWith(SET_ELEMENT_ORDER)) {
                continue;
            }
            if (name.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                deleteFromPrimitiveList(result, name.substring(DELETE_FROM_PRIMITIVE_LIST.length()), value);
                continue;
            }
            String childPath = path.isEmpty() ? name : path + "." + name;
            if (value.isNull()) {
                result.remove(name);
                continue;
            }
            JsonNode merged = mergeValue(result.get(name), value, childPath);
            if (merged == null) {
                result.remove(name);
            } else {
                result.set(name, merged);
            }
        }
        applyElementOrders(result, patch);
        retainKeys(result, patch);
        return result;
    }

    private JsonNode mergeValue(JsonNode target, JsonNode patch, String path) {
        if (patch.isObject()) {
            return mergeObject(target != null && target.isObject() ? (ObjectNode) target : null,
                    (ObjectNode) patch, path);
        }
        if (patch.isArray() && mergeKeys.containsKey(path)) {
            ArrayNode original = target != null && target.isArray() ? (ArrayNode) target : JsonNodeFactory.instance.arrayNode();
            String key = mergeKeys.get(path);
            return key.equals(PRIMITIVE_SET) ? mergePrimitiveSet(original, (ArrayNode) patch)
                    : mergeKeyedList(original, (ArrayNode) patch, key, path);
        }
        return patch.deepCopy();
    }

    private JsonNode mergeKeyedList(ArrayNode target, ArrayNode patch, String key, String path) {
        for (JsonNode element : patch) {
            if (element.isObject() && element.path(PATCH).asText("").equals("replace")) {
                ArrayNode replacement = JsonNodeFactory.instance.arrayNode();
                patch.forEach(e -> {
                    if (!e.path(PATCH).asText("").equals("replace")) {
                        replacement.add(e.deepCopy());
                    }
                });
                return replacement;
            }
        }
        ArrayNode result = target.deepCopy();
        for (JsonNode element : patch) {
            if (!element.isObject() || !element.has(key)) {
                throw ApiException.badRequest("map: " + element + " does not contain declared merge key: " + key);
            }
            int at = indexOf(result, key, element.get(key));
            if (element.path(PATCH).asText("").equals("delete")) {
                if (at >= 0) {
                    result.remove(at);
                }
            } else if (at >= 0) {
                JsonNode merged = mergeObject((ObjectNode) result.get(at), (ObjectNode) element, path);
                if (merged == null) {
                    result.remove(at);
                } else {
                    result.set(at, merged);
                }
            } else {
                ObjectNode added = (ObjectNode) element.deepCopy();
                added.remove(PATCH);
                result.add(added);
            }
        }
        return result;
    }

    private static JsonNode mergePrimitiveSet(ArrayNode target, ArrayNode patch) {
        ArrayNode result = target.deepCopy();
        Set<JsonNode> present = new HashSet<>();
        result.forEach(present::add);
        for (JsonNode element : patch) {
            if (present.add(element)) {
                result.add(element.deepCopy());
            }
        }
        return result;
    }

    private static void deleteFromPrimitiveList(ObjectNode result, String field, JsonNode values) {
        JsonNode list = result.get(field);
        if (!(list instanceof ArrayNode array) || !values.isArray()) {
            return;
        }
        Set<JsonNode> doomed = new HashSet<>();
        values.forEach(doomed::add);
        for (int i = array.size() - 1; i >= 0; i--) {
            if (doomed.contains(array.get(i))) {
                array.remove(i);
            }
        }
    }

    /** {@code $setElementOrder/<list>}: the patched list follows the given order; others keep theirs after. */
    private void applyElementOrders(ObjectNode result, ObjectNode patch) {
        for (var it = patch.fields(); it.hasNext();) {
            var member = it.next();
            if (!member.getKey().startsWith(SET_ELEMENT_ORDER) || !member.getValue().isArray()) {
                continue;
            }
            JsonNode list = result.get(member.getKey().substring(SET_ELEMENT_ORDER.length()));
            if (!(list instanceof ArrayNode array)) {
                continue;
            }
            List<JsonNode> ordered = new ArrayList<>();
            Set<Integer> placed = new LinkedHashSet<>();
            for (JsonNode wanted : member.getValue()) {
                for (int i = 0; i < array.size(); i++) {
                    if (!placed.contains(i) && matchesOrderEntry(array.get(i), wanted)) {
                        ordered.add(array.get(i));
                        placed.add(i);
                        break;
                    }
                }
            }
            for (int i = 0; i < array.size(); i++) {
                if (!placed.contains(i)) {
                    ordered.add(array.get(i));
                }
            }
            array.removeAll();
            ordered.forEach(array::add);
        }
    }

    private static boolean matchesOrderEntry(JsonNode element, JsonNode wanted) {
        if (!wanted.isObject()) {
            return element.equals(wanted);
        }
        for (var it = wanted.fields(); it.hasNext();) {
            var field = it.next();
            if (!field.getValue().equals(element.get(field.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static void retainKeys(ObjectNode result, ObjectNode patch) {
        JsonNode retain = patch.get(RETAIN_KEYS);
        if (retain == null) {
            return;
        }
        if (!retain.isArray()) {
            throw ApiException.badRequest("invalid patch: " + RETAIN_KEYS + " must be a list");
        }
        Set<String> keep = new HashSet<>();
        retain.forEach(k -> keep.add(k.asText()));
        result.retain(keep);
    }

    private static int indexOf(ArrayNode list, String key, JsonNode value) {
        for (int i = 0; i < list.size(); i++) {
            if (value.equals(list.get(i).get(key))) {
                return i;
            }
        }
        return -1;
    }
}
