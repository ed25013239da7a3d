package io.watchgate.patch;

import java.util.Arrays;
import java.util.Optional;

/** The patch formats a PATCH request may send, named by their media types. */
public enum PatchType {
    JSON_PATCH("application/json-patch+json"),
    MERGE_PATCH("application/merge-patch+json"),
    STRATEGIC_MERGE_PATCH("application/strategic-merge-patch+json"),
    APPLY_PATCH("application/apply-patch+yaml");

    private final String mediaType;

    PatchType(String mediaType) {
        this.mediaType = mediaType;
    }

    public String mediaType() {
        return mediaType;
    }

    /** The type named by a Content-Type header, ignoring parameters such as charset. */
    public static Optional<PatchType> fromContentType(String contentType) {
        if (contentType == null) {
            return Optional.empty();
        }
        String bare = contentType.split(";", 2)[0].trim().toLowerCase();
        return Arrays.stream(values()).filter(t -> t.mediaType.equals(bare)).findFirst();
    }
}
