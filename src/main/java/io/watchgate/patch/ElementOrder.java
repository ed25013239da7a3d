package io.watchgate.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code $setElementOrder/<list>}: the list's elements named by the order come first, in its order; the others
 * follow in the order they had. An entry names an element of a keyed list by its merge key, and of a list of
 * primitives by its value; entries that name nothing are skipped, and an element is placed once.
 */
final class ElementOrder {

    private ElementOrder() {
    }

    /**
     * @param listKey the list's merge key, "" or null when it holds primitives (or has no declared strategy)
     */
    static void apply(ArrayNode list, ArrayNode order, String listKey) {
        boolean keyed = listKey != null && !listKey.isEmpty();
        int size = list.size();
        // each identity's elements as a chain of positions, first first, so duplicates are placed one by one
        Map<String, Integer> first = new HashMap<>();
        int[] next = new int[size];
        for (int i = size - 1; i >= 0; i--) {
            String identity = identity(list.get(i), keyed, listKey);
            Integer after = identity == null ? null : first.put(identity, i);
            next[i] = after == null ? -1 : after;
        }
        boolean[] placed = new boolean[size];
        List<JsonNode> ordered = new ArrayList<>(size);
        for (JsonNode wanted : order) {
            String identity = identity(wanted, keyed, listKey);
            Integer at = identity == null ? null : first.get(identity);
            if (at != null) {
                ordered.add(list.get(at));
                placed[at] = true;
                if (next[at] < 0) {
                    first.remove(identity);
                } else {
                    first.put(identity, next[at]);
                }
            }
        }
        if (ordered.isEmpty()) {
            return;
        }
        for (int i = 0; i < size; i++) {
            if (!placed[i]) {
                ordered.add(list.get(i));
            }
        }
        list.removeAll();
        list.addAll(ordered);
    }

    private static String identity(JsonNode element, boolean keyed, String listKey) {
        if (!keyed) {
            return element.isContainerNode() ? null : Identity.of(element);
        }
        return element.isObject() ? Identity.of(element.get(listKey)) : null;
    }
}
