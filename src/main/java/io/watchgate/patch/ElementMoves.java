package io.watchgate.patch;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one JSON patch operation costs in array elements shifted: an insertion or removal at index i of an array of n
 * elements moves the n - i after it. Ten thousand insertions at the head of a million-element array are within
 * every other bound and still take a core for tens of seconds; counting moves before each operation bounds that.
 */
final class ElementMoves {

    private ElementMoves() {
    }

    /** @param target the object as the operations before this one left it */
    static long of(JsonNode operation, JsonNode target) {
        String path = operation.path("path").asText("");
        return switch (operation.path("op").asText("")) {
            case "add", "copy", "remove" -> shifted(target, path);
            case "move" -> shifted(target, operation.path("from").asText("")) + shifted(target, path);
            default -> 0;
        };
    }

    private static long shifted(JsonNode target, String path) {
        if (path.isEmpty()) {
            return 0;
        }
        JsonPointer pointer;
        try {
            pointer = JsonPointer.compile(path);
        } catch (IllegalArgumentException notAPointer) {
            return 0; // refused when applied
        }
        JsonNode parent = target.at(pointer.head());
        if (!parent.isArray()) {
            return 0;
        }
        String last = pointer.last().getMatchingProperty();
        if (last.equals("-")) {
            return 0;
        }
        try {
            return Math.max(0, parent.size() - Integer.parseInt(last));
        } catch (NumberFormatException notAnIndex) {
            return 0; // refused when applied
        }
    }
}
