package io.watchgate.objects;

import io.watchgate.status.ApiException;
import java.util.regex.Pattern;

/**
 * The query parameters of a list, checked against each other as kube-apiserver checks them.
 *
 * @param resourceVersion      null when unset
 * @param resourceVersionMatch null when unset, else "Exact" or "NotOlderThan"
 * @param limit                0 for no limit
 * @param continueToken        null when unset
 */
public record ListOptions(String labelSelector, String fieldSelector, String resourceVersion,
        String resourceVersionMatch, long limit, String continueToken) {

    public static final String EXACT = "Exact";
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    public static final String NOT_OLDER_THAN = "NotOlderThan";

    public ListOptions {
        resourceVersion = emptyToNull(resourceVersion);
        resourceVersionMatch = emptyToNull(resourceVersionMatch);
        continueToken = emptyToNull(continueToken);
        if (resourceVersion != null) {
            parseRevision(resourceVersion);
        }
        if (resourceVersionMatch != null) {
            if (!resourceVersionMatch.equals(EXACT) && !resourceVersionMatch.equals(NOT_OLDER_THAN)) {
                throw ApiException.badRequest("resourceVersionMatch: Unsupported value: \"" + resourceVersionMatch
                        + "\": supported values: \"Exact\", \"NotOlderThan\"");
            }
            if (resourceVersion == null) {
                throw ApiException.badRequest(
                        "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided");
            }
            if (continueToken != null) {
                throw ApiException.badRequest(
                        "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided");
            }
            if (resourceVersionMatch.equals(EXACT) && isZero(resourceVersion)) {
                throw ApiException.badRequest(
                        "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
            }
        }
        if (continueToken != null && resourceVersion != null && !isZero(resourceVersion)) {
            throw ApiException.badRequest("specifying resource version is not allowed when using continue");
        }
    }

    /** "0" (in any spelling, such as "00") means "any resourceVersion". */
    public static boolean isZero(String resourceVersion) {
        return resourceVersion != null && parseRevision(resourceVersion) == 0;
    }

    /** A client-sent resourceVersion as a revision, or 400 when it is not one. */
    public static long parseRevision(String resourceVersion) {
        if (!DIGITS.matcher(resourceVersion).matches()) {
            throw ApiException.badRequest("invalid resource version: \"" + resourceVersion
                    + "\": resourceVersion must be a non-negative integer");
        }
        try {
            long revision = Long.parseLong(resourceVersion);
            if (revision >= 0) {
                return revision;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("invalid resource version: \"" + resourceVersion
                + "\": resourceVersion must be a non-negative integer");
    }

    public static long parseLimit(String limit) {
        if (limit == null || limit.isEmpty()) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(limit));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("limit: Invalid value: \"" + limit + "\": must be an integer");
        }
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
