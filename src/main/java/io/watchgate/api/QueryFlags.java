package io.watchgate.api;

import io.watchgate.status.ApiException;
import java.util.List;

/** Query parameters shared by the write verbs. */
final class QueryFlags {

    private QueryFlags() {
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
