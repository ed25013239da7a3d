package io.watchgate.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.re2j.PatternSyntaxException;
import io.watchgate.status.Cause;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks that an {@code openAPIV3Schema} has the shape of a schema before it is stored: nested schemas are
 * objects, {@code type} is one of OpenAPI's, patterns compile, bounds are numbers. What is stored is then safe
 * to apply to objects and to render in OpenAPI documents.
 */
final class SchemaShape {

    private static final Set<String> TYPES = Set.of("object", "array", "string", "integer", "number", "boolean");
    private static final Set<String> NUMBERS = Set.of("minimum", "maximum", "minLength", "maxLength", "minItems",
            "maxItems", "minProperties", "maxProperties");
    private static final int MAX_DEPTH = 64;

    private SchemaShape() {
    }

    static void check(JsonNode schema, String path, List<Cause> causes) {
        check(schema, path, causes, 0);
    }

    private static void check(JsonNode schema, String path, List<Cause> causes, int depth) {
        if (!schema.isObject()) {
            causes.add(Cause.invalid(path, schema.toString(), "must be a schema object"));
            return;
        }
        if (depth > MAX_DEPTH) {
            causes.add(Cause.invalid(path, "", "is nested more than " + MAX_DEPTH + " levels deep"));
            return;
        }
        JsonNode type = schema.get("type");
        if (type != null && !(type.isTextual() && TYPES.contains(type.asText()))) {
            causes.add(Cause.notSupported(path + ".type", type.asText(), List.copyOf(TYPES)));
        }
        for (String bound : NUMBERS) {
            JsonNode value = schema.get(bound);
            if (value != null && !value.isNumber()) {
                causes.add(Cause.invalid(path + "." + bound, value.toString(), "must be a number"));
            }
        }
        JsonNode pattern = schema.get("pattern");
        if (pattern != null) {
            try {
                SchemaPatterns.compile(pattern.asText());
            } catch (PatternSyntaxException e) {
                causes.add(Cause.invalid(path + ".pattern", pattern.asText(), "must be a valid regular expression"));
            }
        }
        JsonNode properties = schema.get("properties");
        if (properties != null) {
            if (!properties.isObject()) {
                causes.add(Cause.invalid(path + ".properties", properties.toString(), "must be a map of schemas"));
            } else {
                Iterator<Map.Entry<String, JsonNode>> fields = properties.fields();
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    check(field.getValue(), path + ".properties[" + field.getKey() + "]", causes, depth + 1);
                }
            }
        }
        JsonNode items = schema.get("items");
        if (items != null) {
            check(items, path + ".items", causes, depth + 1);
        }
        JsonNode additional = schema.get("additionalProperties");
        if (additional != null && !additional.isBoolean()) {
            check(additional, path + ".additionalProperties", causes, depth + 1);
        }
        JsonNode required = schema.get("required");
        if (required != null && !required.isArray()) {
            causes.add(Cause.invalid(path + ".required", required.toString(), "must be a list of field names"));
        }
        JsonNode allowed = schema.get("enum");
        if (allowed != null && !allowed.isArray()) {
            causes.add(Cause.invalid(path + ".enum", allowed.toString(), "must be a list of values"));
        }
    }
}
