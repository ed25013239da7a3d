package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An applied configuration merged into the live object, as structured-merge-diff's {@code Merge}: the
 * configuration's values win; atomic nodes are replaced whole; granular maps merge key by key and granular lists
 * item by item, the items both hold keeping the configuration's order and the live object's others staying beside
 * their neighbours. The result shares no node with either input.
 */
final class Merging {

    private Merging() {
    }

    static JsonNode merge(Structure declared, JsonNode live, JsonNode config) {
        if (config == null) {
            return live.deepCopy();
        }
        if (live == null) {
            return config.deepCopy();
        }
        Structure structure = declared.resolve(config);
        if (structure.atomic() || !structure.fits(live) || !structure.fits(config)
                || declared.resolve(live) != structure) {
            return config.deepCopy();
        }
        if (Comparison.empty(live) && Comparison.empty(config)) {
            return config.deepCopy(); // both empty: the configuration's form (null, {} or []) stands
        }
        if (config.isNull()) {
            return live.deepCopy(); // an empty map or list merged in: nothing changes
        }
        if (live.isNull()) {
            return config.deepCopy();
        }
        if (structure.shape() == Structure.Shape.MAP) {
            ObjectNode merged = JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> members = live.fields(); members.hasNext();) {
                Map.Entry<String, JsonNode> member = members.next();
                merged.set(member.getKey(), mergeMember(structure, member.getKey(), member.getValue(),
                        config.get(member.getKey())));
            }
            for (Iterator<Map.Entry<String, JsonNode>> members = config.fields(); members.hasNext();) {
                Map.Entry<String, JsonNode> member = members.next();
                if (!live.has(member.getKey())) {
                    merged.set(member.getKey(), member.getValue().deepCopy());
                }
            }
            return merged;
        }
        return mergeLists(structure, live, config);
    }

    private static JsonNode mergeMember(Structure structure, String name, JsonNode live, JsonNode config) {
        Structure member = structure.member(name);
        return merge(member == null ? Structure.UNTYPED : member, live, config);
    }

    /** structured-merge-diff's walk of both lists at once, which places each item as its doc comment says. */
    private static ArrayNode mergeLists(Structure structure, JsonNode live, JsonNode config) {
        List<PathElement> liveElements = ListItems.elements(structure, live, List.of(), false);
        List<PathElement> configElements = ListItems.elements(structure, config, List.of(), true);
        Map<PathElement, JsonNode> liveItems = ListItems.byElement(liveElements, live);
        Map<PathElement, JsonNode> configItems = ListItems.byElement(configElements, config);
        Deque<PathElement> shared = new ArrayDeque<>();
        for (PathElement element : configElements) {
            if (liveItems.containsKey(element)) {
                shared.add(element);
            }
        }
        Set<PathElement> merged = new HashSet<>();
        ArrayNode out = JsonNodeFactory.instance.arrayNode(Math.max(live.size(), config.size()));
        int l = 0;
        int r = 0;
        while (l < liveElements.size() || r < configElements.size()) {
            if (l < liveElements.size() && r < configElements.size()) {
                PathElement element = liveElements.get(l);
                if (element.equals(configElements.get(r))) {
                    merged.add(element);
                    out.add(merge(structure.element(), live.get(l), configItems.get(element)));
                    l++;
                    r++;
                    if (element.equals(shared.peek())) {
                        shared.poll();
                    }
                    continue;
                }
                if (configItems.containsKey(element) && !shared.isEmpty() && !shared.peek().equals(element)) {
                    l++; // an item both hold, which the configuration places later
                    continue;
                }
            }
            if (l < liveElements.size()) {
                PathElement element = liveElements.get(l);
                if (!configItems.containsKey(element)) {
                    out.add(live.get(l).deepCopy());
                    l++;
                    continue;
                }
                if (merged.contains(element)) {
                    l++;
                    continue;
                }
            }
            if (r < configElements.size()) {
                PathElement element = configElements.get(r);
                merged.add(element);
                out.add(merge(structure.element(), liveItems.get(element), config.get(r)));
                r++;
                if (element.equals(shared.peek())) {
                    shared.poll();
                }
            }
        }
        return out;
    }
}
