package io.watchgate.managedfields;

import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The manager a write is recorded under, as kube-apiserver names it. */
public final class ManagerNames {

    public static final int MAX_BYTES = 128;

    private ManagerNames() {
    }

    /**
     * The {@code fieldManager} parameter when one is given (checked: 422 when longer than 128 bytes or not printable);
     * else the User-Agent up to its first "/", without unprintable characters, cut to 128 bytes; else "unknown".
     *
     * @param optionsKind the options the parameter belongs to ("CreateOptions", "PatchOptions", ...), for the error
     */
    public static String of(String fieldManager, String userAgent, String optionsKind) {
        if (fieldManager != null && !fieldManager.isEmpty()) {
            validate(fieldManager, optionsKind);
            return fieldManager;
        }
        String agent = userAgent == null ? "" : userAgent.split("/", 2)[0];
        StringBuilder printable = new StringBuilder();
        agent.codePoints().filter(ManagerNames::printable).forEach(printable::appendCodePoint);
        String name = cut(printable.toString());
        return name.isEmpty() ? "unknown" : name;
    }

    /** 422 for a {@code fieldManager} kube-apiserver would refuse. */
    public static void validate(String fieldManager, String optionsKind) {
        if (fieldManager.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw ApiException.invalid("meta.k8s.io", optionsKind, "", List.of(new Cause("FieldValueTooLong",
                    "Too long: may not be more than " + MAX_BYTES + " bytes", "fieldManager")));
        }
        int position = 0;
        for (int i = 0; i < fieldManager.length(); position++) {
            int c = fieldManager.codePointAt(i);
            if (!printable(c)) {
                throw ApiException.invalid("meta.k8s.io", optionsKind, "", List.of(Cause.invalid("fieldManager",
                        fieldManager, String.format("invalid character U+%04X (at position %d)", c, position))));
            }
            i += Character.charCount(c);
        }
    }

    /** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean printable(int c) {
        if (c == ' ') {
            return true;
        }
        int type = Character.getType(c);
        return !(Character.isISOControl(c) || Character.isWhitespace(c) || type == Character.FORMAT
                || type == Character.SURROGATE || type == Character.PRIVATE_USE || type == Character.UNASSIGNED
                || type == Character.SPACE_SEPARATOR || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR);
    }

    private static String cut(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_BYTES) {
            return name;
        }
        int end = MAX_BYTES;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--; // not inside a character
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }
}
