package io.watchgate.openapi;

import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import java.util.List;

/** The {@code fieldValidation} option of writes: what to do about fields the type's schema does not know. */
public enum FieldValidation {
    IGNORE, WARN, STRICT;

    /**
     * @param value       the query parameter, or null (Warn, Kubernetes' default)
     * @param optionsKind "CreateOptions", "UpdateOptions" or "PatchOptions", for the 422 on a bad value
     */
    public static FieldValidation parse(String value, String optionsKind) {
        if (value == null || value.isEmpty()) {
            return WARN;
        }
        return switch (value) {
            case "Ignore" -> IGNORE;
            case "Warn" -> WARN;
            case "Strict" -> STRICT;
            default -> throw ApiException.invalid("meta.k8s.io", optionsKind, "", List.of(
                    Cause.notSupported("fieldValidation", value, List.of("Ignore", "Warn", "Strict"))));
        };
    }
}
