package io.watchgate.api;

import io.watchgate.status.ApiException;
import java.util.List;

/** Query parameters shared by the write verbs. */
final class QueryFlags {

    private QueryFlags() {
    }

    /** A boolean parameter as Go's strconv.ParseBool reads it (what Kubernetes accepts); absent is false. */
    static boolean bool(String name, String value) {
        if (value == null || value.isEmpty()) {
            return false;
        }
        return switch (value) {
            case "1", "t", "T", "true", "True", "TRUE" -> true;
            case "0", "f", "F", "false", "False", "FALSE" -> false;
            default -> throw ApiException.badRequest(name + ": Invalid value: \"" + value + "\": must be a boolean");
        };
    }

    /** {@code dryRun=All} asks for a dry run; any other value is refused. */
    static boolean dryRun(List<String> values) {
        if (values == null || values.isEmpty()) {
            return false;
        }
        for (String value : values) {
            if (!value.equals("All")) {
                throw ApiException.badRequest("dryRun: Unsupported value: \"" + value
                        + "\": supported values: \"All\"");
            }
        }
        return true;
    }
}
