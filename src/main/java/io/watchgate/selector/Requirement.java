package io.watchgate.selector;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One term of a label selector: a key, an operator and the values it compares against. The values are a hash set
 * of Strings, so {@code in} and {@code notin} cost one lookup per object however long their list, even for values
 * chosen to collide.
 */
public record Requirement(String key, Operator operator, Set<String> values) {

    public enum Operator {
        EQUALS, NOT_EQUALS, IN, NOT_IN, EXISTS, DOES_NOT_EXIST, GREATER_THAN, LESS_THAN
    }

    public Requirement {
        values = Collections.unmodifiableSet(new HashSet<>(values));
    }

    public boolean matches(Map<String, String> labels) {
        return matches(labels::get);
    }

    /** @param labels an object's label value by key, null for none */
    public boolean matches(Function<String, String> labels) {
        String value = labels.apply(key);
        return switch (operator) {
            case EQUALS, IN -> value != null && values.contains(value);
            case NOT_EQUALS, NOT_IN -> value == null || !values.contains(value);
            case EXISTS -> value != null;
            case DOES_NOT_EXIST -> value == null;
            case GREATER_THAN -> compareAsInteger(value) > 0;
            case LESS_THAN -> compareAsInteger(value) < 0;
        };
    }

    /** Kubernetes compares {@code >} and {@code <} as integers; a label that is not one never matches. */
    private int compareAsInteger(String value) {
        if (value == null) {
            return 0;
        }
        try {
            return Long.compare(Long.parseLong(value), Long.parseLong(values.iterator().next()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
