package io.watchgate.request;

/**
 * The name a list or watch is confined to by its field selector ({@code metadata.name=x}), which kube-apiserver
 * makes the request's name, so that authorization can allow the list or watch of one named object
 * (RBAC's resourceNames). Read as fields.ParseSelector and RequiresExactMatch read it: terms split at unescaped
 * commas, each {@code field!=value}, {@code field==value} or {@code field=value}; a selector that does not parse
 * names nothing, nor does a name that could not be a path segment. (kube-apiserver also drops the name when another
 * list parameter does not decode; here the other parameters are not read.)
 */
final class FieldSelectorName {

    private static final String FIELD = "metadata.name";

    private FieldSelectorName() {
    }

    /** The name the selector requires, or empty. */
    static String of(String selector) {
        if (selector == null || selector.isEmpty()) {
            return "";
        }
        String chosen = null; // kube-apiserver sorts the terms and takes the first that requires the name
        String chosenTerm = null;
        int start = 0;
        boolean escaped = false;
        for (int i = 0; i <= selector.length(); i++) {
            char c = i < selector.length() ? selector.charAt(i) : ',';
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == ',') {
                String term = selector.substring(start, i);
                start = i + 1;
                if (term.isEmpty()) {
                    continue;
                }
                int operator = operatorIndex(term);
                if (operator < 0) {
                    return ""; // the selector does not parse
                }
                boolean notEqual = term.startsWith("!=", operator);
                int valueStart = operator + (notEqual || term.startsWith("==", operator) ? 2 : 1);
                String value = unescape(term.substring(valueStart));
                if (value == null) {
                    return "";
                }
                if (!notEqual && term.startsWith(FIELD, 0) && operator == FIELD.length()
                        && (chosenTerm == null || term.compareTo(chosenTerm) < 0)) {
                    chosen = value;
                    chosenTerm = term;
                }
            }
        }
        return chosen == null || !isPathSegmentName(chosen) ? "" : chosen;
    }

    /** Where the first of {@code !=}, {@code ==} or {@code =} starts, or -1. */
    private static int operatorIndex(String term) {
        for (int i = 0; i < term.length(); i++) {
            char c = term.charAt(i);
            if (c == '=' || (c == '!' && term.startsWith("!=", i))) {
                return i;
            }
        }
        return -1;
    }

    /** The value with {@code \\}, {@code \,} and {@code \=} unescaped, or null when it has another escape. */
    private static String unescape(String value) {
        if (value.indexOf('\\') < 0 && value.indexOf('=') < 0) {
            return value;
        }
        StringBuilder unescaped = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\') {
                if (i + 1 == value.length() || "\\,=".indexOf(value.charAt(i + 1)) < 0) {
                    return null;
                }
                c = value.charAt(++i);
            } else if (c == ',' || c == '=') {
                return null; // kube-apiserver refuses them unescaped in a value
            }
            unescaped.append(c);
        }
        return unescaped.toString();
    }

    /** Whether the name could be a path segment (apimachinery's IsValidPathSegmentName). */
    private static boolean isPathSegmentName(String name) {
        return !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0 && name.indexOf('%') < 0;
    }
}
