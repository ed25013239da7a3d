package io.watchgate.authz.rbac;

import java.util.List;

/**
 * Strings as Go's {@code %q} prints them, which kube-apiserver's RBAC messages are made of: {@code "bob"}, and a
 * list as {@code ["g1" "system:authenticated"]}. Clients match these messages, so they are reproduced exactly.
 */
final class GoQuoted {

    private GoQuoted() {
    }

    /**
     * Past this many chars a value is quoted clipped, followed by {@code ...}: names and values are unbounded in RBAC
     * objects (path segments), and messages and cached errors quote them once per rule, atom or binding.
     */
    static final int MAX_QUOTED_CHARS = 256;

    static String of(String value) {
        if (value.length() > MAX_QUOTED_CHARS) {
            return of(value.substring(0, MAX_QUOTED_CHARS)) + "...";
        }
        StringBuilder quoted = new StringBuilder(value.length() + 2).append('"');
        value.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                case 7 -> quoted.append("\\a");
                case '\b' -> quoted.append("\\b");
                case '\f' -> quoted.append("\\f");
                case 11 -> quoted.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        quoted.append(String.format("\\x%02x", c));
                    } else if (!printable(c)) {
                        // Go escapes what it does not print: \\u for the BMP, \\U beyond
                        quoted.append(c <= 0xffff ? String.format("\\u%04x", c) : String.format("\\U%08x", c));
                    } else {
                        quoted.appendCodePoint(c);
                    }
                }
            }
        });
        return quoted.append('"').toString();
    }

    /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean printable(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.SURROGATE,
                    Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
            case Character.SPACE_SEPARATOR -> c == ' ';
            default -> true;
        };
    }

    static String list(List<String> values) {
        StringBuilder quoted = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            quoted.append(i == 0 ? "" : " ").append(of(values.get(i)));
        }
        return quoted.append(']').toString();
    }
}
