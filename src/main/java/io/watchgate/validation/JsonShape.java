package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.ApiException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What any stored JSON must be, whatever its type: nested no deeper than {@link #MAX_DEPTH} (so that it can
 * always be written back out), and with every number representable as a float64 (what Go clients decode
 * numbers of unknown fields into).
 */
public final class JsonShape {

    public static final int MAX_DEPTH = 500;

    private JsonShape() {
    }

    public static void requireStorable(JsonNode root) {
        Deque<JsonNode> nodes = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        nodes.push(root);
        depths.push(1);
        while (!nodes.isEmpty()) {
            JsonNode node = nodes.pop();
            int depth = depths.pop();
            if (node.isContainerNode()) {
                if (depth > MAX_DEPTH) {
                    throw ApiException.badRequest("the object is nested deeper than " + MAX_DEPTH + " levels");
                }
                for (JsonNode child : node) {
                    nodes.push(child);
                    depths.push(depth + 1);
                }
            } else if (node.isNumber() && !node.isIntegralNumber() && !Double.isFinite(node.doubleValue())) {
                throw ApiException.badRequest("the number " + node.asText() + " is out of range for a float64");
            } else if (node.isBigInteger() && !Double.isFinite(node.doubleValue())) {
                throw ApiException.badRequest("the number " + node.asText() + " is out of range for a float64");
            }
        }
    }

    /** About how many bytes {@code root} takes serialized; walks the tree once, without writing it. */
    public static long estimatedBytes(JsonNode root) {
        long bytes = 0;
        Deque<JsonNode> nodes = new ArrayDeque<>();
        nodes.push(root);
        while (!nodes.isEmpty()) {
            JsonNode node = nodes.pop();
            if (node.isObject()) {
                bytes += 2;
                for (var it = node.fields(); it.hasNext();) {
                    var field = it.next();
                    bytes += field.getKey().length() + 4;
                    nodes.push(field.getValue());
                }
            } else if (node.isArray()) {
                bytes += 2;
                for (JsonNode child : node) {
                    bytes += 1;
                    nodes.push(child);
                }
            } else if (node.isTextual()) {
                bytes += node.textValue().length() + 2;
            } else {
                bytes += node.asText().length();
            }
        }
        return bytes;
    }
}
