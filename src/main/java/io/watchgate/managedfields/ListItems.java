package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The path element of each item of a granular list: the item's value in a set, its key fields in a map list (a key
 * missing from the item takes the default its schema gives). Items of an applied configuration must be well formed
 * ({@link StructureError} otherwise); a stored object may hold what an older writer let in, so there an item that
 * cannot be named, or a second item of the same name, is named by its index and merged as a whole.
 */
final class ListItems {

    private ListItems() {
    }

    /** @param strict whether a malformed item is an error ({@link StructureError}) rather than named by index */
    static List<PathElement> elements(Structure list, JsonNode items, List<PathElement> path, boolean strict) {
        List<PathElement> elements = new ArrayList<>(items.size());
        Set<PathElement> seen = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            PathElement element;
            try {
                element = elementOf(list, items.get(i), path);
            } catch (StructureError e) {
                if (strict) {
                    throw e;
                }
                element = PathElement.index(i);
            }
            if (!seen.add(element)) {
                if (strict) {
                    throw new StructureError(path, "duplicate entries for key " + element);
                }
                element = PathElement.index(i);
            }
            elements.add(element);
        }
        return elements;
    }

    private static PathElement elementOf(Structure list, JsonNode item, List<PathElement> path) {
        if (list.listType() == Structure.ListType.SET) {
            if (item.isContainerNode()) {
                throw new StructureError(path, "a set holds only scalars, not a JSON " + item.getNodeType().name()
                        .toLowerCase());
            }
            return PathElement.value(item);
        }
        if (!item.isObject()) {
            throw new StructureError(path, "associative list with keys has an element that is not a map");
        }
        ObjectNode keys = JsonNodeFactory.instance.objectNode();
        Structure element = list.element();
        for (String key : list.keys()) {
            JsonNode value = item.get(key);
            if (value == null || value.isNull()) {
                Structure field = element.member(key);
                value = field == null ? null : field.defaultValue;
            }
            if (value == null) {
                continue;
            }
            if (value.isContainerNode()) {
                throw new StructureError(path, "associative list key " + key + " is not a scalar");
            }
            keys.set(key, value);
        }
        if (keys.isEmpty()) {
            throw new StructureError(path, "associative list with keys has an element that omits all key fields "
                    + list.keys() + " (and doesn't have default values for any key fields)");
        }
        return PathElement.key(keys);
    }

    /** The items of {@code list} by their elements (as {@link #elements} named them), in the list's order. */
    static Map<PathElement, JsonNode> byElement(List<PathElement> elements, JsonNode list) {
        Map<PathElement, JsonNode> items = new LinkedHashMap<>();
        for (int i = 0; i < elements.size(); i++) {
            items.put(elements.get(i), list.get(i));
        }
        return items;
    }
}
