package io.watchgate.crd;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/** How a schema's {@code type} reads JSON values, and how values and bounds are named in messages. */
final class SchemaTypes {

    private SchemaTypes() {
    }

    static boolean hasType(JsonNode value, JsonNode schema) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return value.isTextual() || value.isIntegralNumber();
        }
        return switch (schema.path("type").asText("")) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber() || (value.isNumber() && isWhole(value.decimalValue()));
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            default -> true;
        };
    }

    /** Whether {@code number} has no fraction; without stripping zeros, which is slow for 1E+999999999. */
    private static boolean isWhole(BigDecimal number) {
        if (number.signum() == 0 || number.scale() <= 0) {
            return true;
        }
        if (number.precision() <= number.scale()) {
            return false; // between -1 and 1, and not 0
        }
        return number.remainder(BigDecimal.ONE).signum() == 0; // scale below precision: a thousand digits at most
    }

    static String jsonType(JsonNode value) {
        if (value.isTextual()) {
            return "string";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        if (value.isNumber()) {
            return "number";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        return value.isArray() ? "array" : "object";
    }

    /** A bound as Kubernetes writes it (plain digits), unless that would take thousands of them. */
    static String plain(BigDecimal bound) {
        return Math.abs((long) bound.scale()) > 100 || bound.precision() - (long) bound.scale() > 100
                ? bound.toString() : bound.toPlainString();
    }
}
