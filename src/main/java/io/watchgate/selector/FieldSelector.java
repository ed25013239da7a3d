package io.watchgate.selector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A parsed field selector: terms {@code field=value}, {@code field==value} or {@code field!=value} joined by
 * commas, over the field labels a type supports. A backslash escapes {@code ,}, {@code =}, {@code !} and
 * itself in values.
 */
public record FieldSelector(List<Term> terms) {

    public static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    /** One term, resolved to the JSON pointer of the field it reads. */
    public record Term(String label, String pointer, boolean equal, String value) {
    }

    public boolean isEverything() {
        return terms.isEmpty();
    }

    public boolean matches(ObjectNode object) {
        for (Term term : terms) {
            JsonNode node = object.at(term.pointer());
            String actual = node.isMissingNode() || node.isNull() ? "" : node.asText();
            if (actual.equals(term.value()) != term.equal()) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param labels the field labels the type supports, each mapped to a JSON pointer
     */
    public static FieldSelector parse(String text, Map<String, String> labels) {
        if (text == null || text.isBlank()) {
            return EVERYTHING;
        }
        List<Term> terms = new ArrayList<>();
        for (String part : splitUnescaped(text, ',')) {
            if (part.isBlank()) {
                continue;
            }
            terms.add(term(part, labels, text));
        }
        return new FieldSelector(List.copyOf(terms));
    }

    private static Term term(String part, Map<String, String> labels, String text) {
        int op = indexOfUnescapedOperator(part);
        if (op < 0) {
            throw new SelectorException("invalid selector: '" + Quoted.of(text) + "'; can't understand '"
                    + Quoted.of(part) + "'");
        }
        boolean notEqual = part.startsWith("!=", op);
        int valueStart = op + (notEqual || part.startsWith("==", op) ? 2 : 1);
        String label = part.substring(0, op).trim();
        String value = unescape(part.substring(valueStart).trim(), text);
        String pointer = labels.get(label);
        if (pointer == null) {
            throw new SelectorException("field label not supported: " + Quoted.of(label));
        }
        return new Term(label, pointer, !notEqual, value);
    }

    private static int indexOfUnescapedOperator(String part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '=' || (c == '!' && part.startsWith("!=", i))) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> splitUnescaped(String text, char separator) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == separator) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    private static String unescape(String value, String text) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\') {
                if (i + 1 >= value.length() || "\\,=!".indexOf(value.charAt(i + 1)) < 0) {
                    throw new SelectorException("invalid field selector: '" + Quoted.of(text)
                            + "': invalid escape sequence");
                }
                out.append(value.charAt(++i));
            } else if (c == '=' || c == ',' || c == '!') {
                throw new SelectorException("invalid field selector: '" + Quoted.of(text) + "': unescaped '" + c
                        + "' in value");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
