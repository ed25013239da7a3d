package io.watchgate.status;

/**
 * Text a client sent, echoed in an error answer, cut to the bytes it takes in that answer's JSON: a field name or
 * value from a body may be megabytes long, and the answer must stay small whatever it echoes.
 */
public final class Clip {

    static final String MARK = "...";

    private Clip() {
    }

    /** {@code text} if its JSON takes at most {@code maxBytes}, else its longest head that does, ended by "...". */
    public static String json(String text, int maxBytes) {
        if (text == null || text.length() <= maxBytes / 6) {
            return text; // even escaped as \\u0000 each, it fits: the common case costs no walk
        }
        int budget = maxBytes - MARK.length();
        long bytes = 0;
        int cut = -1;
        for (int i = 0; i < text.length(); i++) {
            int width = jsonBytes(text.charAt(i));
            if (cut < 0 && bytes + width > budget) {
                cut = i;
            }
            bytes += width;
            if (bytes > maxBytes) {
                if (cut > 0 && Character.isLowSurrogate(text.charAt(cut)) && Character.isHighSurrogate(text.charAt(cut - 1))) {
                    cut--; // not between the halves of a pair
                }
                return text.substring(0, cut) + MARK;
            }
        }
        return text;
    }

    /** The bytes {@code text} takes in JSON as Jackson writes it. */
    static long jsonBytes(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            bytes += jsonBytes(text.charAt(i));
        }
        return bytes;
    }

    /**
     * Bytes of one UTF-16 unit in JSON as Jackson writes it: UTF-8, but control characters and each half of a
     * surrogate pair escaped as \\uXXXX.
     */
    private static int jsonBytes(char c) {
        if (c < 0x20 || Character.isSurrogate(c)) {
            return 6;
        }
        if (c == '"' || c == '\\') {
            return 2;
        }
        if (c < 0x80) {
            return 1;
        }
        return c < 0x800 ? 2 : 3;
    }
}
