package io.watchgate.selector;

import java.util.List;
import java.util.Map;

/** One term of a label selector: a key, an operator and the values it compares against. */
public record Requirement(String key, Operator operator, List<String> values) {

    public enum Operator {
        EQUALS, NOT_EQUALS, IN, NOT_IN, EXISTS, DOES_NOT_EXIST, GREATER_THAN, LESS_THAN
    }

    public boolean matches(Map<String, String> labels) {
        String value = labels.get(key);
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
            return Long.compare(Long.parseLong(value), Long.parseLong(values.get(0)));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
