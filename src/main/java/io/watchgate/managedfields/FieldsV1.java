package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * The {@code fieldsV1} form of a field set in managedFields: a trie of JSON objects whose member names are path
 * elements ({@code f:}, {@code k:}, {@code v:}, {@code i:}) and whose {@code "."} marks a node that is itself in the
 * set; written in structured-merge-diff's order, so that the bytes are kube-apiserver's.
 */
public final class FieldsV1 {

    private FieldsV1() {
    }

    public static ObjectNode encode(FieldSet set) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        set.children().forEach((element, child) -> {
            ObjectNode encoded = encode(child);
            if (child.isMember() && !child.children().isEmpty()) {
                ObjectNode withSelf = JsonNodeFactory.instance.objectNode();
                withSelf.putObject(".");
                withSelf.setAll(encoded);
                encoded = withSelf;
            }
            node.set(element.fieldsV1Key(), encoded);
        });
        return node;
    }

    /**
     * @throws IllegalArgumentException when {@code fieldsV1} is not a trie of objects, or a key or value in it is
     *                                  not JSON
     */
    public static FieldSet decode(JsonNode fieldsV1) {
        FieldSet set = FieldSet.empty();
        decodeInto(fieldsV1, set, 0);
        return set;
    }

    private static void decodeInto(JsonNode node, FieldSet set, int depth) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("fieldsV1 holds a JSON " + node.getNodeType().name().toLowerCase()
                    + " where an object is expected");
        }
        if (depth > 1000) {
            throw new IllegalArgumentException("fieldsV1 is nested deeper than 1000 levels");
        }
        for (Iterator<Map.Entry<String, JsonNode>> members = node.fields(); members.hasNext();) {
            Map.Entry<String, JsonNode> member = members.next();
            if (member.getKey().equals(".")) {
                set.markMember();
                continue;
            }
            var element = PathElement.ofFieldsV1Key(member.getKey());
            if (element.isEmpty()) {
                continue;
            }
            FieldSet child = set.descend(element.get());
            JsonNode below = member.getValue();
            if (below.isObject() && below.isEmpty()) {
                child.markMember();
            } else {
                decodeInto(below, child, depth + 1);
                if (child.isEmpty()) {
                    set.removeChild(element.get()); // only prefixes this server skips below it
                }
            }
        }
    }
}
