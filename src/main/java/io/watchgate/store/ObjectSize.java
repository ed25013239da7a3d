package io.watchgate.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * About how many bytes of heap a stored object takes: its serialized bytes and its tree. The tree is counted by
 * what it holds, not by the length of the JSON: an object of many small fields takes several times its serialized size
 * as a tree, and a history that counted only the JSON would hold many times what its bound says. The figures are
 * Jackson's nodes on a 64-bit JVM with compressed references, rounded up.
 */
public final class ObjectSize {

    /** An object node and its LinkedHashMap. */
    private static final int OBJECT = 96;
    /** A map entry, its share of the table, and its key String (plus the key's characters). */
    private static final int FIELD = 88;
    /** An array node and its ArrayList. */
    private static final int ARRAY = 56;
    /** A reference in the ArrayList, with room to grow. */
    private static final int ELEMENT = 6;
    /** A text node and its String (plus the characters). */
    private static final int TEXT = 56;
    /** A number node (a decimal or a big integer takes more). */
    private static final int NUMBER = 24;
    private static final int BIG_NUMBER = 72;

    private ObjectSize() {
    }

    public static long inMemory(StoredObject object) {
        return object.json().length + tree(object.tree());
    }

    /** Walks {@code root} once; true, false and null are shared nodes and cost nothing. */
    static long tree(JsonNode root) {
        long bytes = 0;
        Deque<JsonNode> nodes = new ArrayDeque<>();
        nodes.push(root);
        while (!nodes.isEmpty()) {
            JsonNode node = nodes.pop();
            switch (node.getNodeType()) {
                case OBJECT -> {
                    bytes += OBJECT;
                    for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                        Map.Entry<String, JsonNode> field = fields.next();
                        bytes += FIELD + field.getKey().length();
                        nodes.push(field.getValue());
                    }
                }
                case ARRAY -> {
                    bytes += ARRAY;
                    for (JsonNode element : node) {
                        bytes += ELEMENT;
                        nodes.push(element);
                    }
                }
                case STRING -> bytes += TEXT + node.textValue().length();
                case NUMBER -> bytes += node.isBigDecimal() || node.isBigInteger() ? BIG_NUMBER : NUMBER;
                case BINARY, POJO -> bytes += TEXT + node.asText().length();
                default -> {
                    // BOOLEAN, NULL, MISSING: singletons
                }
            }
        }
        return bytes;
    }
}
