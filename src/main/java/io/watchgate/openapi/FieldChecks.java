package io.watchgate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Applies {@code fieldValidation} to a write's body: Strict refuses unknown fields with 400, as kube-apiserver's
 * strict decoding does; Warn returns them as warnings for the response; Ignore says nothing.
 */
@ApplicationScoped
public class FieldChecks {

    private final UnknownFields unknownFields;

    FieldChecks(UnknownFields unknownFields) {
        this.unknownFields = unknownFields;
    }

    /** @return the warnings to send (Warn), else none */
    public List<String> check(ResourceType type, JsonNode body, FieldValidation mode) {
        if (mode == FieldValidation.IGNORE || body == null || !body.isObject()) {
            return List.of();
        }
        List<String> unknown = unknownFields.of(type, body).stream()
                .filter(path -> !isPatchDirective(path))
                .sorted()
                .toList();
        if (unknown.isEmpty()) {
            return List.of();
        }
        List<String> messages = unknown.stream().map(path -> "unknown field \"" + path + "\"").toList();
        if (mode == FieldValidation.STRICT) {
            throw ApiException.undecodable(type.kind(), type.version(), "strict decoding error: "
                    + messages.stream().collect(Collectors.joining(", ")));
        }
        return messages;
    }

    /** Strategic merge patch directives ($patch, $retainKeys, $setElementOrder/...) are not fields. */
    private static boolean isPatchDirective(String path) {
        return path.startsWith("$") || path.contains(".$");
    }
}
