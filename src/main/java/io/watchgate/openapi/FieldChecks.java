package io.watchgate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.crd.UndeclaredFields;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies {@code fieldValidation} to a write's body: Strict refuses unknown fields with 400, as kube-apiserver's
 * strict decoding does; Warn returns them as warnings for the response; Ignore says nothing.
 *
 * <p>A body may hold a quarter of a million unknown fields, each named by a key of a megabyte: the first
 * {@link #MAX_REPORTED} are reported, the rest counted, and the warnings are cut as kube-apiserver cuts its Warning
 * headers (each to {@link #MAX_WARNING_CHARS}, all together to {@link #MAX_WARNINGS_CHARS}).
 */
@ApplicationScoped
public class FieldChecks {

    /** The unknown fields named one by one. */
    static final int MAX_REPORTED = 100;
    /** As kube-apiserver's {@code truncateItemRunes}. */
    static final int MAX_WARNING_CHARS = 256;
    /** As kube-apiserver's {@code truncateAtTotalRunes}. */
    static final int MAX_WARNINGS_CHARS = 4 * 1024;

    private final UnknownFields unknownFields;

    FieldChecks(UnknownFields unknownFields) {
        this.unknownFields = unknownFields;
    }

    /** @return the warnings to send (Warn), else none */
    public List<String> check(ResourceType type, JsonNode body, FieldValidation mode) {
        if (mode == FieldValidation.IGNORE || body == null || !body.isObject()) {
            return List.of();
        }
        UndeclaredFields unknown = unknownFields.of(type, body, MAX_REPORTED);
        if (unknown.count() == 0) {
            return List.of();
        }
        List<String> messages = unknown.first().stream().sorted().map(path -> "unknown field \"" + path + "\"")
                .toList();
        long more = unknown.count() - messages.size();
        if (mode == FieldValidation.STRICT) {
            throw ApiException.undecodable(type.kind(), type.version(), "strict decoding error: "
                    + String.join(", ", messages) + (more == 0 ? "" : ", and " + more + " more unknown fields"));
        }
        return cut(messages, more);
    }

    /** Each warning to its bound, then as many as fit in all; a last one says how many were left out. */
    static List<String> cut(List<String> messages, long more) {
        List<String> warnings = new ArrayList<>();
        long total = 0;
        for (String message : messages) {
            String warning = message.length() <= MAX_WARNING_CHARS ? message
                    : message.substring(0, MAX_WARNING_CHARS - 3) + "...";
            if (total + warning.length() > MAX_WARNINGS_CHARS - 64) {
                break;
            }
            warnings.add(warning);
            total += warning.length();
        }
        long left = messages.size() - warnings.size() + more;
        if (left > 0) {
            warnings.add("and " + left + " more unknown fields");
        }
        return warnings;
    }
}
