package io.watchgate.status;

import java.util.List;

/** One entry of a Status' {@code details.causes}: what is wrong with which field. */
public record Cause(String reason, String message, String field) {

    /** {@code field: Invalid value: "v": detail}, as Kubernetes renders FieldValueInvalid. */
    public static Cause invalid(String field, Object value, String detail) {
        return new Cause("FieldValueInvalid", "Invalid value: " + quote(value) + ": " + detail, field);
    }

    public static Cause required(String field, String detail) {
        return new Cause("FieldValueRequired", "Required value: " + detail, field);
    }

    public static Cause tooLong(String field, long limit) {
        return new Cause("FieldValueTooLong", "Too long: must have at most " + limit + " bytes", field);
    }

    /** {@code field: Unsupported value: "v": supported values: "a", "b"}. */
    public static Cause notSupported(String field, String value, List<String> supported) {
        return new Cause("FieldValueNotSupported", "Unsupported value: " + quote(value) + ": supported values: "
                + String.join(", ", supported.stream().map(Cause::quote).toList()), field);
    }

    public static Cause forbidden(String field, String detail) {
        return new Cause("FieldValueForbidden", "Forbidden: " + detail, field);
    }

    /** How the cause reads inside a Status message. */
    public String render() {
        return field + ": " + message;
    }

    private static String quote(Object value) {
        return value instanceof String s ? "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"" : String.valueOf(value);
    }
}
