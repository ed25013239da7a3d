package io.watchgate.patch;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a list element is matched by, as a String: hash maps of Strings stay logarithmic even when an attacker
 * picks values whose hash codes collide (colliding Strings are ordered in a tree bin), which JsonNode keys,
 * not being Comparable, are not.
 */
final class Identity {

    private Identity() {
    }

    /** Null for no value; text as itself, anything else as its JSON (two different prefixes keep them apart). */
    static String of(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return null;
        }
        return value.isTextual() ? "s" + value.textValue() : "j" + value;
    }

    /** A value as an error message may quote it: never more than 512 of its characters. */
    static String quoted(Object value) {
        String text = String.valueOf(value);
        return text.length() <= 512 ? text : text.substring(0, 512) + "... (" + text.length() + " characters)";
    }
}
