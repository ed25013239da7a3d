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
        int bytes = 0;
        int cut = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int width = jsonBytes(c);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                width = 4;
            }
            if (cut < 0 && bytes + width > budget) {
                cut = i;
            }
            bytes += width;
            if (bytes > maxBytes) {
                return text.substring(0, cut) + MARK;
            }
            if (width == 4) {
                i++; // the pair's low half, counted with it
            }
        }
        return text;
    }

    /** The bytes {@code text} takes in JSON (within a byte per unpaired surrogate). */
    static long jsonBytes(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            bytes += jsonBytes(text.charAt(i));
        }
        return bytes;
    }

    /** Bytes of one UTF-16 unit in JSON as Jackson writes it (UTF-8, control characters as \\u00XX). */
    private static int jsonBytes(char c) {
        if (c < 0x20) {
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
