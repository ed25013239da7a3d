package io.watchgate.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The structural schema rules written as plainly as they read, to check {@link StructuralSchema} against: a path
 * string at every step, an enum searched one by one, no bound on problems. Slow and obviously right.
 */
final class ReferenceSchema {

    private ReferenceSchema() {
    }

    /** The fields of an object's problems, one per problem, and the paths of the fields pruned from it. */
    record Result(List<String> problems, List<String> pruned) {
    }

    /** Prunes {@code object} in place. */
    static Result apply(ObjectNode object, JsonNode schema) {
        Result result = new Result(new ArrayList<>(), new ArrayList<>());
        check(object, schema, "", result, true);
        return result;
    }

    private static void check(JsonNode value, JsonNode schema, String path, Result result, boolean atRoot) {
        List<String> fields = result.problems();
        if (schema == null || !schema.isObject()) {
            return;
        }
        if (value.isNull()) {
            if (!schema.path("nullable").asBoolean(false) && schema.has("type")) {
                fields.add(path);
            }
            return;
        }
        if (!typed(value, schema)) {
            fields.add(path);
            return;
        }
        if (schema.has("enum")) {
            boolean found = false;
            for (JsonNode allowed : schema.get("enum")) {
                found |= allowed.equals(value);
            }
            if (!found) {
                fields.add(path);
            }
        }
        if (value.isTextual()) {
            int length = value.asText().codePointCount(0, value.asText().length());
            if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
                fields.add(path);
            }
            if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
                fields.add(path);
            }
            if (schema.has("pattern") && !java.util.regex.Pattern.compile(schema.get("pattern").asText())
                    .matcher(value.asText()).find()) {
                fields.add(path);
            }
        } else if (value.isNumber()) {
            if (schema.has("minimum")) {
                int compared = value.decimalValue().compareTo(schema.get("minimum").decimalValue());
                if (compared < 0 || (compared == 0 && schema.path("exclusiveMinimum").asBoolean(false))) {
                    fields.add(path);
                }
            }
            if (schema.has("maximum")) {
                int compared = value.decimalValue().compareTo(schema.get("maximum").decimalValue());
                if (compared > 0 || (compared == 0 && schema.path("exclusiveMaximum").asBoolean(false))) {
                    fields.add(path);
                }
            }
        } else if (value.isArray()) {
            if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
                fields.add(path);
            }
            if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
                fields.add(path);
            }
            for (int i = 0; i < value.size(); i++) {
                check(value.get(i), schema.get("items"), path + "[" + i + "]", result, false);
            }
        } else if (value.isObject()) {
            for (JsonNode required : schema.path("required")) {
                if (!value.has(required.asText())) {
                    fields.add(child(path, required.asText()));
                }
            }
            JsonNode additional = schema.get("additionalProperties");
            Iterator<Map.Entry<String, JsonNode>> entries = value.fields();
            while (entries.hasNext()) {
                Map.Entry<String, JsonNode> entry = entries.next();
                String name = entry.getKey();
                if (atRoot && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"))) {
                    continue;
                }
                if (schema.path("properties").has(name)) {
                    check(entry.getValue(), schema.get("properties").get(name), child(path, name), result, false);
                } else if (additional != null && additional.isObject()) {
                    check(entry.getValue(), additional, child(path, name), result, false);
                } else if (!schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
                        && !(additional != null && additional.asBoolean(false))) {
                    result.pruned().add(child(path, name));
                    entries.remove();
                }
            }
        }
    }

    private static boolean typed(JsonNode value, JsonNode schema) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return value.isTextual() || value.isIntegralNumber();
        }
        return switch (schema.path("type").asText("")) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber()
                    || (value.isNumber() && value.decimalValue().stripTrailingZeros().scale() <= 0);
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            default -> true;
        };
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
