package io.watchgate.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes strategic merge patch, as kubectl sends it for built-in types: a merge patch in which lists with
 * a patch merge key merge element by element, lists of primitives with the merge strategy merge as sets, and
 * the directives {@code $patch} (replace, delete, merge), {@code $retainKeys},
 * {@code $setElementOrder/<list>} and {@code $deleteFromPrimitiveList/<list>} are honoured.
 *
 * <p>Linear in the sizes of the object and the patch: lists are matched through hash indexes of their
 * elements' identities, and rebuilt once rather than shifted per removal. As in Kubernetes, a keyed list's
 * deletions apply before its merges, and each deletion removes every element with that key.
 */
final class StrategicMergePatch {

    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
    /** A merge key of "" marks a list of primitives merged as a set. */
    static final String PRIMITIVE_SET = "";

    private final MergeKeys mergeKeys;

    StrategicMergePatch(Map<String, String> mergeKeys) {
        this.mergeKeys = MergeKeys.of(mergeKeys);
    }

    /** @param target a tree the caller owns: it is merged in place */
    ObjectNode apply(ObjectNode target, ObjectNode patch) {
        JsonNode result = mergeObject(target, patch, mergeKeys);
        if (result == null || !result.isObject()) {
            throw ApiException.badRequest("the strategic merge patch removed the whole object");
        }
        return (ObjectNode) result;
    }

    /** Returns the merged object, or null when the patch deletes it. */
    private JsonNode mergeObject(ObjectNode target, ObjectNode patch, MergeKeys keys) {
        String directive = directive(patch, "merge");
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
                throw ApiException.badRequest("unknown patch type: " + Identity.quoted(directive) + " in " + PATCH
                        + " directive");
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
            if (value.isNull()) {
                result.remove(name);
                continue;
            }
            JsonNode merged = mergeValue(result.get(name), value, keys.child(name));
            if (merged == null) {
                result.remove(name);
            } else {
                result.set(name, merged);
            }
        }
        for (var it = patch.fields(); it.hasNext();) {
            var member = it.next();
            if (member.getKey().startsWith(SET_ELEMENT_ORDER) && member.getValue().isArray()) {
                String list = member.getKey().substring(SET_ELEMENT_ORDER.length());
                if (result.get(list) instanceof ArrayNode array) {
                    ElementOrder.apply(array, (ArrayNode) member.getValue(), keys.child(list).listKey());
                }
            }
        }
        retainKeys(result, patch);
        return result;
    }

    private JsonNode mergeValue(JsonNode target, JsonNode patch, MergeKeys keys) {
        if (patch.isObject()) {
            return mergeObject(target != null && target.isObject() ? (ObjectNode) target : null,
                    (ObjectNode) patch, keys);
        }
        String key = keys.listKey();
        if (patch.isArray() && key != null) {
            ArrayNode original = target != null && target.isArray() ? (ArrayNode) target
                    : JsonNodeFactory.instance.arrayNode();
            return key.equals(PRIMITIVE_SET) ? mergePrimitiveSet(original, (ArrayNode) patch)
                    : mergeKeyedList(original, (ArrayNode) patch, key, keys);
        }
        return patch.deepCopy();
    }

    private JsonNode mergeKeyedList(ArrayNode target, ArrayNode patch, String key, MergeKeys keys) {
        Set<String> deleted = new HashSet<>();
        for (JsonNode element : patch) {
            if (element.isObject() && directive(element, "").equals("replace")) {
                return replacement(patch);
            }
        }
        for (JsonNode element : patch) {
            if (!element.isObject() || !element.has(key)) {
                throw ApiException.badRequest("map: " + Identity.quoted(element) + " does not contain declared "
                        + "merge key: " + key);
            }
            if (directive(element, "").equals("delete")) {
                deleted.add(Identity.of(element.get(key)));
            }
        }
        List<JsonNode> merged = new ArrayList<>(target.size() + patch.size());
        Map<String, Integer> positions = new HashMap<>();
        for (JsonNode element : target) {
            String identity = Identity.of(element.get(key));
            if (identity == null || !deleted.contains(identity)) {
                if (identity != null) {
                    positions.putIfAbsent(identity, merged.size());
                }
                merged.add(element);
            }
        }
        for (JsonNode element : patch) {
            if (directive(element, "").equals("delete")) {
                continue;
            }
            String identity = Identity.of(element.get(key));
            Integer at = positions.get(identity);
            if (at == null) {
                ObjectNode added = (ObjectNode) element.deepCopy();
                added.remove(PATCH);
                positions.put(identity, merged.size());
                merged.add(added);
            } else {
                JsonNode current = merged.get(at);
                JsonNode result = mergeObject(current.isObject() ? (ObjectNode) current : null, (ObjectNode) element,
                        keys);
                merged.set(at, result);
                if (result == null) {
                    positions.remove(identity);
                }
            }
        }
        ArrayNode result = JsonNodeFactory.instance.arrayNode(merged.size());
        for (JsonNode element : merged) {
            if (element != null) {
                result.add(element);
            }
        }
        return result;
    }

    /** A list with a {@code $patch: replace} element: the patch's other elements, and nothing of the target. */
    private static ArrayNode replacement(ArrayNode patch) {
        ArrayNode replacement = JsonNodeFactory.instance.arrayNode();
        for (JsonNode element : patch) {
            if (!(element.isObject() && directive(element, "").equals("replace"))) {
                replacement.add(element.deepCopy());
            }
        }
        return replacement;
    }

    private static JsonNode mergePrimitiveSet(ArrayNode target, ArrayNode patch) {
        Set<String> present = new HashSet<>();
        target.forEach(element -> present.add(Identity.of(element)));
        for (JsonNode element : patch) {
            if (present.add(Identity.of(element))) {
                target.add(element.deepCopy());
            }
        }
        return target;
    }

    private static void deleteFromPrimitiveList(ObjectNode result, String field, JsonNode values) {
        JsonNode list = result.get(field);
        if (!(list instanceof ArrayNode array) || !values.isArray()) {
            return;
        }
        Set<String> doomed = new HashSet<>();
        values.forEach(value -> doomed.add(Identity.of(value)));
        ArrayNode kept = JsonNodeFactory.instance.arrayNode(array.size());
        for (JsonNode element : array) {
            if (!doomed.contains(Identity.of(element))) {
                kept.add(element);
            }
        }
        result.set(field, kept);
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

    /** The {@code $patch} directive of an object in the patch, or {@code otherwise}. */
    private static String directive(JsonNode patch, String otherwise) {
        JsonNode directive = patch.get(PATCH);
        return directive == null ? otherwise : directive.asText(otherwise);
    }
}
