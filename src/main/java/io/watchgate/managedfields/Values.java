package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON values as structured-merge-diff compares them: numbers by value whatever Jackson made of them (an int parsed
 * from a body and a long written by a defaulter are the same 80), and an order across kinds for sorting path elements.
 */
final class Values {

    private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> {
        if (a.equals(b)) {
            return 0;
        }
        if (a.isNumber() && b.isNumber()) {
            return compare(a, b) == 0 ? 0 : 1;
        }
        return 1;
    };

    private Values() {
    }

    static boolean equal(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(NUMBERS_BY_VALUE, b);
    }

    /** A copy in which every integral number is a long and object members are sorted, so equal values hash alike. */
    static JsonNode canonical(JsonNode value) {
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return JsonNodeFactory.instance.numberNode(value.longValue());
        }
        if (value.isNumber()) {
            return JsonNodeFactory.instance.numberNode(value.doubleValue()); // 1e400 is infinite, as in Go
        }
        if (value.isObject()) {
            ObjectNode sorted = JsonNodeFactory.instance.objectNode();
            List<String> names = new ArrayList<>();
            value.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            for (String name : names) {
                sorted.set(name, canonical(value.get(name)));
            }
            return sorted;
        }
        if (value.isArray()) {
            var array = JsonNodeFactory.instance.arrayNode(value.size());
            value.forEach(item -> array.add(canonical(item)));
            return array;
        }
        return value;
    }

    /** structured-merge-diff's order: numbers, strings, booleans, lists, maps, null. */
    static int compare(JsonNode a, JsonNode b) {
        int byRank = Integer.compare(rank(a), rank(b));
        if (byRank != 0) {
            return byRank;
        }
        switch (rank(a)) {
            case 0:
                return Double.compare(a.doubleValue(), b.doubleValue()) != 0 || !Double.isFinite(a.doubleValue())
                        ? Double.compare(a.doubleValue(), b.doubleValue())
                        : a.decimalValue().compareTo(b.decimalValue());
            case 1:
                return a.textValue().compareTo(b.textValue());
            case 2:
                return Boolean.compare(a.booleanValue(), b.booleanValue());
            case 3:
                for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                    int byItem = compare(a.get(i), b.get(i));
                    if (byItem != 0) {
                        return byItem;
                    }
                }
                return Integer.compare(a.size(), b.size());
            case 4:
                return compareMaps(a, b);
            default:
                return 0;
        }
    }

    /** Member by member in name order (the values compared are canonical: sorted already): name, then value. */
    private static int compareMaps(JsonNode a, JsonNode b) {
        Iterator<Map.Entry<String, JsonNode>> left = a.fields();
        Iterator<Map.Entry<String, JsonNode>> right = b.fields();
        while (left.hasNext() && right.hasNext()) {
            Map.Entry<String, JsonNode> l = left.next();
            Map.Entry<String, JsonNode> r = right.next();
            int byName = l.getKey().compareTo(r.getKey());
            if (byName != 0) {
                return byName;
            }
            int byValue = compare(l.getValue(), r.getValue());
            if (byValue != 0) {
                return byValue;
            }
        }
        return Boolean.compare(left.hasNext(), right.hasNext());
    }

    private static int rank(JsonNode value) {
        if (value.isNumber()) {
            return 0;
        }
        if (value.isTextual()) {
            return 1;
        }
        if (value.isBoolean()) {
            return 2;
        }
        if (value.isArray()) {
            return 3;
        }
        if (value.isObject()) {
            return 4;
        }
        return 5;
    }

    /** Go's %q of a string is close to its JSON form; other values print as JSON. */
    static String printed(JsonNode value) {
        return value.toString();
    }
}
