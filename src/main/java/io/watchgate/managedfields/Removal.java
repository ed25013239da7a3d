package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A copy of an object without the nodes a set names (each with all below it), as structured-merge-diff's
 * {@code RemoveItems}: how an applier's abandoned fields are pruned.
 */
final class Removal {

    private Removal() {
    }

    static JsonNode without(Structure declared, JsonNode value, FieldSet removed) {
        Structure structure = declared.resolve(value);
        if (removed.isEmpty() || structure.atomic() || !structure.fits(value) || value.isNull()) {
            return value.deepCopy();
        }
        if (structure.shape() == Structure.Shape.MAP) {
            ObjectNode kept = JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> members = value.fields(); members.hasNext();) {
                Map.Entry<String, JsonNode> member = members.next();
                FieldSet below = removed.child(PathElement.field(member.getKey()));
                if (!below.isMember()) {
                    Structure memberStructure = structure.member(member.getKey());
                    kept.set(member.getKey(), without(memberStructure == null ? Structure.UNTYPED : memberStructure,
                            member.getValue(), below));
                }
            }
            return kept;
        }
        List<PathElement> elements = ListItems.elements(structure, value, List.of(), false);
        ArrayNode kept = JsonNodeFactory.instance.arrayNode(value.size());
        for (int i = 0; i < elements.size(); i++) {
            FieldSet below = removed.child(elements.get(i));
            if (!below.isMember()) {
                kept.add(without(structure.element(), value.get(i), below));
            }
        }
        return kept;
    }
}
