package io.watchgate.request;

import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import java.util.List;

/** Query parameters shared by the write verbs. */
public final class QueryFlags {

    private QueryFlags() {
    }

    /** A boolean parameter as Go's strconv.ParseBool reads it (what Kubernetes accepts); absent is false. */
    public static boolean bool(String name, String value) {
        if (value == null || value.isEmpty()) {
            return false;
        }
        return switch (value) {
            case "1", "t", "T", "true", "True", "TRUE" -> true;
            case "0", "f", "F", "false", "False", "FALSE" -> false;
            default -> throw ApiException.badRequest(name + ": Invalid value: \"" + value + "\": must be a boolean");
        };
    }

    /**
     * {@code dryRun=All} asks for a dry run; any other value is 422, as Kubernetes validates its options.
     *
     * @param optionsKind the options type the verb takes ("CreateOptions", "UpdateOptions", ...)
     */
    public static boolean dryRun(List<String> values, String optionsKind) {
        if (values == null || values.isEmpty()) {
            return false;
        }
        for (String value : values) {
            if (!value.equals("All")) {
                throw ApiException.invalid("meta.k8s.io", optionsKind, "",
                        List.of(Cause.notSupported("dryRun", value, List.of("All"))));
            }
        }
        return true;
    }
}
