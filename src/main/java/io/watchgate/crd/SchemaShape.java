package io.watchgate.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.re2j.PatternSyntaxException;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import io.watchgate.status.FieldPath;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks that an {@code openAPIV3Schema} has the shape of a schema before it is stored: nested schemas are
 * objects, {@code type} is one of OpenAPI's, patterns are RE2 and small enough to compile, bounds are numbers. What
 * is stored is then safe to apply to objects and to render in OpenAPI documents.
 */
final class SchemaShape {

    private static final Set<String> TYPES = Set.of("object", "array", "string", "integer", "number", "boolean");
    private static final Set<String> NUMBERS = Set.of("minimum", "maximum", "minLength", "maxLength", "minItems",
            "maxItems", "minProperties", "maxProperties");
    private static final int MAX_DEPTH = 64;

    private SchemaShape() {
    }

    /**
     * Checks {@code schema}, found at {@code path}, into {@code causes}; its patterns are parsed and measured, never
     * compiled, and charged to {@code patterns}, the definition's budget.
     */
    static void check(JsonNode schema, FieldPath path, Causes causes, PatternBudget patterns) {
        check(schema, path, causes, patterns, 0);
    }

    private static void check(JsonNode schema, FieldPath path, Causes causes, PatternBudget patterns, int depth) {
        if (!schema.isObject()) {
            if (causes.accept()) {
                causes.add(Cause.invalid(path.toString(), SchemaTypes.jsonType(schema), "must be a schema object"));
            }
            return;
        }
        if (depth > MAX_DEPTH) {
            if (causes.accept()) {
                causes.add(Cause.invalid(path.toString(), "", "is nested more than " + MAX_DEPTH + " levels deep"));
            }
            return;
        }
        JsonNode type = schema.get("type");
        if (type != null && !(type.isTextual() && TYPES.contains(type.asText())) && causes.accept()) {
            causes.add(Cause.notSupported(path.field("type").toString(), type.asText(), List.copyOf(TYPES)));
        }
        for (String bound : NUMBERS) {
            JsonNode value = schema.get(bound);
            if (value != null && !value.isNumber() && causes.accept()) {
                causes.add(Cause.invalid(path.field(bound).toString(), SchemaTypes.jsonType(value), "must be a number"));
            }
        }
        JsonNode pattern = schema.get("pattern");
        if (pattern != null) {
            try {
                patterns.charge(pattern.asText());
            } catch (PatternSyntaxException e) {
                if (causes.accept()) {
                    causes.add(Cause.invalid(path.field("pattern").toString(), pattern.asText(),
                            "must be a valid regular expression: " + e.getDescription()));
                }
            }
        }
        JsonNode properties = schema.get("properties");
        if (properties != null) {
            if (!properties.isObject()) {
                if (causes.accept()) {
                    causes.add(Cause.invalid(path.field("properties").toString(), SchemaTypes.jsonType(properties),
                            "must be a map of schemas"));
                }
            } else {
                FieldPath declared = path.field("properties");
                Iterator<Map.Entry<String, JsonNode>> fields = properties.fields();
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    check(field.getValue(), declared.key(field.getKey()), causes, patterns, depth + 1);
                }
            }
        }
        JsonNode items = schema.get("items");
        if (items != null) {
            check(items, path.field("items"), causes, patterns, depth + 1);
        }
        JsonNode additional = schema.get("additionalProperties");
        if (additional != null && !additional.isBoolean()) {
            check(additional, path.field("additionalProperties"), causes, patterns, depth + 1);
        }
        JsonNode required = schema.get("required");
        if (required != null && !required.isArray() && causes.accept()) {
            causes.add(Cause.invalid(path.field("required").toString(), SchemaTypes.jsonType(required),
                    "must be a list of field names"));
        }
        JsonNode allowed = schema.get("enum");
        if (allowed != null && !allowed.isArray() && causes.accept()) {
            causes.add(Cause.invalid(path.field("enum").toString(), SchemaTypes.jsonType(allowed),
                    "must be a list of values"));
        }
    }
}
