package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The fields an object sets, as structured-merge-diff's {@code ToFieldSet}: scalars and atomic nodes, each list
 * item, each map key that is not a declared struct field, and each member that is {@code null} or {@code {}}. A
 * declared field holding a non-empty object is not itself in the set, only what is below it.
 */
final class FieldSets {

    private FieldSets() {
    }

    /** @param strict whether a malformed node is an error, as in an applied configuration ({@link StructureError}) */
    static FieldSet of(Structure structure, JsonNode object, boolean strict) {
        FieldSet set = FieldSet.empty();
        collect(structure, object, new ArrayList<>(), set, strict);
        return set;
    }

    private static void collect(Structure declared, JsonNode value, List<PathElement> path, FieldSet node,
            boolean strict) {
        Structure structure = declared.resolve(value);
        if (structure.atomic() || !structure.fits(value)) {
            node.markMember();
            return;
        }
        if (structure.shape() == Structure.Shape.MAP) {
            for (Iterator<Map.Entry<String, JsonNode>> members = value.fields(); members.hasNext();) {
                Map.Entry<String, JsonNode> member = members.next();
                String name = member.getKey();
                JsonNode child = member.getValue();
                PathElement element = PathElement.field(name);
                Structure memberStructure = structure.member(name);
                if (memberStructure == null) {
                    if (strict) {
                        path.add(element);
                        throw new StructureError(path, "field not declared in schema");
                    }
                    memberStructure = Structure.UNTYPED;
                }
                FieldSet childNode = node.descend(element);
                path.add(element);
                collect(memberStructure, child, path, childNode, strict);
                path.remove(path.size() - 1);
                if (child.isNull() || child.isObject() && child.isEmpty() || !structure.declares(name)) {
                    childNode.markMember();
                }
                if (childNode.isEmpty()) {
                    node.removeChild(element);
                }
            }
            return;
        }
        List<PathElement> elements = ListItems.elements(structure, value, path, strict);
        for (int i = 0; i < elements.size(); i++) {
            PathElement element = elements.get(i);
            FieldSet childNode = node.descend(element);
            path.add(element);
            collect(structure.element(), value.get(i), path, childNode, strict);
            path.remove(path.size() - 1);
            childNode.markMember();
        }
    }

    /** {@code set} with every declared struct field that has members below it made a member itself. */
    static FieldSet namedFieldsAsMembers(Structure structure, FieldSet set) {
        FieldSet ensured = FieldSet.empty();
        if (set.isMember()) {
            ensured.markMember();
        }
        set.children().forEach((element, child) -> {
            Structure below = childStructure(structure, element);
            FieldSet ensuredChild = namedFieldsAsMembers(below, child);
            if (element.kind() == PathElement.Kind.FIELD && structure.shape() == Structure.Shape.MAP
                    && structure.declares(element.name()) && !child.children().isEmpty()) {
                ensuredChild.markMember();
            }
            ensured.put(element, ensuredChild);
        });
        return ensured;
    }

    static Structure childStructure(Structure structure, PathElement element) {
        if (element.kind() == PathElement.Kind.FIELD) {
            if (structure.shape() != Structure.Shape.MAP) {
                return Structure.UNTYPED;
            }
            Structure member = structure.member(element.name());
            return member == null ? Structure.UNTYPED : member;
        }
        return structure.shape() == Structure.Shape.LIST ? structure.element() : Structure.UNTYPED;
    }
}
