package io.watchgate.managedfields;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * One step of a path through an object, as structured-merge-diff names it: a field (or map key), the key fields of an
 * associative list's item, the value of a set's item, or a list index. Values are canonical ({@link Values}), so
 * equal steps are equal records.
 *
 * @param value the key fields (a sorted object) for {@link Kind#KEY}, the item for {@link Kind#VALUE}
 */
public record PathElement(Kind kind, String name, JsonNode value, int index) implements Comparable<PathElement> {

    /** In the order structured-merge-diff sorts them. */
    public enum Kind { FIELD, KEY, VALUE, INDEX }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public static PathElement field(String name) {
        return new PathElement(Kind.FIELD, name, null, 0);
    }

    public static PathElement key(ObjectNode keyFields) {
        return new PathElement(Kind.KEY, null, Values.canonical(keyFields), 0);
    }

    public static PathElement value(JsonNode item) {
        return new PathElement(Kind.VALUE, null, Values.canonical(item), 0);
    }

    public static PathElement index(int index) {
        return new PathElement(Kind.INDEX, null, null, index);
    }

    /** The member name of this step in a {@code fieldsV1} object. */
    String fieldsV1Key() {
        return switch (kind) {
            case FIELD -> "f:" + name;
            case KEY -> "k:" + value;
            case VALUE -> "v:" + value;
            case INDEX -> "i:" + index;
        };
    }

    /**
     * The step a {@code fieldsV1} member name stands for; empty for a prefix this server does not know, which
     * structured-merge-diff skips too.
     *
     * @throws IllegalArgumentException when a key or a value is not JSON, or a key is not a JSON object
     */
    static Optional<PathElement> ofFieldsV1Key(String key) {
        if (key.length() < 2 || key.charAt(1) != ':') {
            return Optional.empty();
        }
        String rest = key.substring(2);
        switch (key.charAt(0)) {
            case 'f':
                return Optional.of(field(rest));
            case 'k':
                // a list's key fields are scalars, as its set's items are: nothing deeper is ever a key
                if (!(json(rest) instanceof ObjectNode keys) || keys.isEmpty()) {
                    throw new IllegalArgumentException("the key " + key + " is not a non-empty JSON object");
                }
                keys.forEach(field -> requireScalar(field, key));
                return Optional.of(key(keys));
            case 'v':
                JsonNode item = json(rest);
                requireScalar(item, key);
                return Optional.of(value(item));
            case 'i':
                try {
                    return Optional.of(index(Integer.parseInt(rest)));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("the index " + key + " is not a number");
                }
            default:
                return Optional.empty();
        }
    }

    private static void requireScalar(JsonNode value, String key) {
        if (value.isContainerNode()) {
            throw new IllegalArgumentException("the element " + key + " holds more than a scalar");
        }
    }

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + text);
        }
    }

    /** As structured-merge-diff prints a path: {@code .name}, {@code [k=v,k2=v2]}, {@code [=v]}, {@code [n]}. */
    @Override
    public String toString() {
        switch (kind) {
            case FIELD:
                return "." + name;
            case KEY:
                StringBuilder printed = new StringBuilder("[");
                for (Iterator<Map.Entry<String, JsonNode>> keys = value.fields(); keys.hasNext();) {
                    Map.Entry<String, JsonNode> key = keys.next();
                    printed.append(key.getKey()).append('=').append(Values.printed(key.getValue()));
                    if (keys.hasNext()) {
                        printed.append(',');
                    }
                }
                return printed.append(']').toString();
            case VALUE:
                return "[=" + Values.printed(value) + "]";
            default:
                return "[" + index + "]";
        }
    }

    @Override
    public int compareTo(PathElement other) {
        int byKind = kind.compareTo(other.kind);
        if (byKind != 0) {
            return byKind;
        }
        return switch (kind) {
            case FIELD -> name.compareTo(other.name);
            case KEY, VALUE -> Values.compare(value, other.value);
            case INDEX -> Integer.compare(index, other.index);
        };
    }
}
