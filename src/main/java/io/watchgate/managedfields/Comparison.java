package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What changed from one object to another, as structured-merge-diff's {@code Compare}: the paths added (every node
 * that is new, its parents within the new part included), modified (leaves whose value changed) and removed.
 */
record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {

    static Comparison of(Structure structure, JsonNode before, JsonNode after) {
        Comparison comparison = new Comparison(FieldSet.empty(), FieldSet.empty(), FieldSet.empty());
        comparison.compare(structure, before, after, new ArrayList<>());
        return comparison;
    }

    /** What a writer of this change took: the fields it added or changed (a new set). */
    FieldSet addedOrModified() {
        return added.union(modified);
    }

    /**
     * As {@link #addedOrModified}, made of {@link #added} itself: for a caller that reads nothing else of this
     * comparison but {@link #removed} afterwards, and saves a copy of what may be every field of a large object.
     */
    FieldSet takeAddedOrModified() {
        added.addAll(modified);
        return added;
    }

    boolean isEmpty() {
        return added.isEmpty() && modified.isEmpty() && removed.isEmpty();
    }

    /** Takes the paths of {@code stripped}, and everything below those of {@code strippedBelow}, out of all three. */
    Comparison strip(FieldSet stripped, FieldSet strippedBelow) {
        for (FieldSet set : new FieldSet[] { added, modified, removed }) {
            set.removeAll(stripped);
            set.removeBelow(strippedBelow);
        }
        return this;
    }

    private void compare(Structure declared, JsonNode before, JsonNode after, List<PathElement> path) {
        JsonNode present = after != null ? after : before;
        Structure structure = declared.resolve(present);
        boolean leaf = structure.atomic() || !structure.fits(present)
                || before != null && after != null && (!structure.fits(before)
                        || declared.resolve(before) != structure || empty(before) && empty(after));
        if (leaf) {
            if (before == null) {
                added.insert(path);
            } else if (after == null) {
                removed.insert(path);
            } else if (!Values.equal(before, after)) {
                modified.insert(path);
            }
            return;
        }
        if (structure.shape() == Structure.Shape.MAP) {
            compareMaps(structure, before, after, path);
        } else {
            compareLists(structure, before, after, path);
        }
        if (before == null) {
            added.insert(path);
        } else if (after == null) {
            removed.insert(path);
        }
    }

    private void compareMaps(Structure structure, JsonNode before, JsonNode after, List<PathElement> path) {
        if (before != null) {
            for (Iterator<Map.Entry<String, JsonNode>> members = before.fields(); members.hasNext();) {
                Map.Entry<String, JsonNode> member = members.next();
                compareMember(structure, member.getKey(), member.getValue(),
                        after == null ? null : after.get(member.getKey()), path);
            }
        }
        if (after != null) {
            for (Iterator<Map.Entry<String, JsonNode>> members = after.fields(); members.hasNext();) {
                Map.Entry<String, JsonNode> member = members.next();
                if (before == null || !before.has(member.getKey())) {
                    compareMember(structure, member.getKey(), null, member.getValue(), path);
                }
            }
        }
    }

    private void compareMember(Structure structure, String name, JsonNode before, JsonNode after,
            List<PathElement> path) {
        Structure member = structure.member(name);
        path.add(PathElement.field(name));
        compare(member == null ? Structure.UNTYPED : member, before, after, path);
        path.remove(path.size() - 1);
    }

    private void compareLists(Structure structure, JsonNode before, JsonNode after, List<PathElement> path) {
        Map<PathElement, JsonNode> beforeItems = items(structure, before, path);
        Map<PathElement, JsonNode> afterItems = items(structure, after, path);
        beforeItems.forEach((element, item) -> {
            path.add(element);
            compare(structure.element(), item, afterItems.get(element), path);
            path.remove(path.size() - 1);
        });
        afterItems.forEach((element, item) -> {
            if (!beforeItems.containsKey(element)) {
                path.add(element);
                compare(structure.element(), null, item, path);
                path.remove(path.size() - 1);
            }
        });
    }

    /**
     * null, {} or []: where both sides are, structured-merge-diff compares them as leaves, so that null and {} are
     * a change.
     */
    static boolean empty(JsonNode value) {
        return value.isNull() || value.isContainerNode() && value.isEmpty();
    }

    private static Map<PathElement, JsonNode> items(Structure structure, JsonNode list, List<PathElement> path) {
        return list == null ? Map.of() : ListItems.byElement(ListItems.elements(structure, list, path, false), list);
    }
}
