package io.watchgate.status;

import java.util.List;

/**
 * One entry of a Status' {@code details.causes}: what is wrong with which field. The field and message are cut to
 * {@link #MAX_FIELD_BYTES} and {@link #MAX_MESSAGE_BYTES} (a field name comes from the body, and may be a megabyte),
 * and a value it quotes to {@link #MAX_VALUE_BYTES}, so that the detail after it survives the cut.
 */
public record Cause(String reason, String message, String field) {

    public static final int MAX_FIELD_BYTES = 256;
    public static final int MAX_MESSAGE_BYTES = 1024;
    static final int MAX_VALUE_BYTES = 256;

    public Cause {
        message = Clip.json(message, MAX_MESSAGE_BYTES);
        field = Clip.json(field, MAX_FIELD_BYTES);
    }

    /** {@code field: Invalid value: "v": detail}, as Kubernetes renders FieldValueInvalid. */
    public static Cause invalid(String field, Object value, String detail) {
        return new Cause("FieldValueInvalid", "Invalid value: " + quote(value) + ": " + detail, field);
    }

    /**
     * As {@link #invalid}, the value as Go prints it, unquoted: kube-apiserver shows a missing resourceVersion, a
     * uint64, as {@code 0x0}.
     */
    public static Cause invalidPrinted(String field, String printed, String detail) {
        return new Cause("FieldValueInvalid", "Invalid value: " + printed + ": " + detail, field);
    }

    /** {@code field: Required value[: detail]}: as in Kubernetes, an empty detail adds nothing. */
    public static Cause required(String field, String detail) {
        return new Cause("FieldValueRequired", detail.isEmpty() ? "Required value" : "Required value: " + detail,
                field);
    }

    public static Cause tooLong(String field, long limit) {
        return new Cause("FieldValueTooLong", "Too long: must have at most " + limit + " bytes", field);
    }

    /** {@code field: Unsupported value: "v": supported values: "a", "b"}. */
    public static Cause notSupported(String field, String value, List<String> supported) {
        StringBuilder values = new StringBuilder();
        for (String each : supported) {
            if (values.length() > MAX_MESSAGE_BYTES) {
                break; // the message is cut there anyway: an enum of a million values is not rendered whole
            }
            values.append(values.isEmpty() ? "" : ", ").append(quote(each));
        }
        return new Cause("FieldValueNotSupported", "Unsupported value: " + quote(value) + ": supported values: "
                + values, field);
    }

    public static Cause forbidden(String field, String detail) {
        return new Cause("FieldValueForbidden", "Forbidden: " + detail, field);
    }

    /** How the cause reads inside a Status message. */
    public String render() {
        return field + ": " + message;
    }

    private static String quote(Object value) {
        if (!(value instanceof String s)) {
            return Clip.json(String.valueOf(value), MAX_VALUE_BYTES);
        }
        return "\"" + Clip.json(s, MAX_VALUE_BYTES).replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
