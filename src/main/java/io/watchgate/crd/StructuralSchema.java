package io.watchgate.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.re2j.PatternSyntaxException;
import io.watchgate.status.Cause;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A CustomResourceDefinition version's {@code openAPIV3Schema}, applied as kube-apiserver applies structural
 * schemas: fields the schema does not declare are pruned (unless it preserves unknown fields), then values are
 * checked for type, required, enum, pattern, bounds, lengths and item counts, each problem a cause.
 */
public final class StructuralSchema {

    private static final int MAX_DEPTH = 200;

    private final JsonNode root;

    public StructuralSchema(JsonNode root) {
        this.root = root;
    }

    /** Prunes {@code object} in place and returns what is wrong with it (empty when valid). */
    public List<Cause> apply(ObjectNode object) {
        List<Cause> causes = new ArrayList<>();
        walk(object, root, "", causes, new ArrayList<>(), 0, true);
        return causes;
    }

    /** The paths of the fields pruning would drop from {@code object} ("spec.bogus"), which stays untouched. */
    public List<String> undeclaredFields(ObjectNode object) {
        List<String> pruned = new ArrayList<>();
        walk(object.deepCopy(), root, "", new ArrayList<>(), pruned, 0, true);
        return pruned;
    }

    private void walk(JsonNode value, JsonNode schema, String path, List<Cause> causes, List<String> pruned,
            int depth, boolean atRoot) {
        if (schema == null || !schema.isObject() || depth > MAX_DEPTH) {
            return;
        }
        if (value == null || value.isNull()) {
            if (value != null && !schema.path("nullable").asBoolean(false) && schema.has("type")) {
                causes.add(Cause.invalid(path, "null", path + " in body must be of type "
                        + schema.path("type").asText() + ": \"null\""));
            }
            return;
        }
        if (!hasType(value, schema)) {
            causes.add(Cause.invalid(path, display(value), path + " in body must be of type "
                    + schema.path("type").asText() + ": \"" + jsonType(value) + "\""));
            return;
        }
        checkEnum(value, schema, path, causes);
        if (value.isTextual()) {
            checkString(value.asText(), schema, path, causes);
        } else if (value.isNumber()) {
            checkNumber(value, schema, path, causes);
        } else if (value.isArray()) {
            checkArray(value, schema, path, causes, pruned, depth);
        } else if (value.isObject()) {
            checkObject((ObjectNode) value, schema, path, causes, pruned, depth, atRoot);
        }
    }

    private static boolean hasType(JsonNode value, JsonNode schema) {
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

    private static void checkEnum(JsonNode value, JsonNode schema, String path, List<Cause> causes) {
        JsonNode allowed = schema.get("enum");
        if (allowed == null || !allowed.isArray()) {
            return;
        }
        for (JsonNode candidate : allowed) {
            if (candidate.equals(value)) {
                return;
            }
        }
        List<String> supported = new ArrayList<>();
        allowed.forEach(candidate -> supported.add(candidate.isTextual() ? candidate.asText() : candidate.toString()));
        causes.add(Cause.notSupported(path, value.isTextual() ? value.asText() : value.toString(), supported));
    }

    private static void checkString(String text, JsonNode schema, String path, List<Cause> causes) {
        int length = text.codePointCount(0, text.length());
        if (schema.has("minLength") && length < schema.get("minLength").asLong()) {
            causes.add(Cause.invalid(path, text, path + " in body should be at least "
                    + schema.get("minLength").asLong() + " chars long"));
        }
        if (schema.has("maxLength") && length > schema.get("maxLength").asLong()) {
            causes.add(Cause.tooLong(path, schema.get("maxLength").asLong()));
        }
        if (schema.has("pattern")) {
            String pattern = schema.get("pattern").asText();
            try {
                if (!SchemaPatterns.compile(pattern).matcher(text).find()) {
                    causes.add(Cause.invalid(path, text, path + " in body should match '" + pattern + "'"));
                }
            } catch (PatternSyntaxException e) {
                // refused when the definition was written; one stored before that rule is not the client's fault
            }
        }
    }

    private static void checkNumber(JsonNode value, JsonNode schema, String path, List<Cause> causes) {
        java.math.BigDecimal number = value.decimalValue();
        if (schema.has("minimum")) {
            java.math.BigDecimal minimum = schema.get("minimum").decimalValue();
            boolean exclusive = schema.path("exclusiveMinimum").asBoolean(false);
            int compared = number.compareTo(minimum);
            if (compared < 0 || (exclusive && compared == 0)) {
                causes.add(Cause.invalid(path, value.asText(), path + " in body should be greater than "
                        + (exclusive ? "" : "or equal to ") + minimum.toPlainString()));
            }
        }
        if (schema.has("maximum")) {
            java.math.BigDecimal maximum = schema.get("maximum").decimalValue();
            boolean exclusive = schema.path("exclusiveMaximum").asBoolean(false);
            int compared = number.compareTo(maximum);
            if (compared > 0 || (exclusive && compared == 0)) {
                causes.add(Cause.invalid(path, value.asText(), path + " in body should be less than "
                        + (exclusive ? "" : "or equal to ") + maximum.toPlainString()));
            }
        }
    }

    private void checkArray(JsonNode array, JsonNode schema, String path, List<Cause> causes, List<String> pruned,
            int depth) {
        if (schema.has("minItems") && array.size() < schema.get("minItems").asLong()) {
            causes.add(Cause.invalid(path, array.size(), path + " in body should have at least "
                    + schema.get("minItems").asLong() + " items"));
        }
        if (schema.has("maxItems") && array.size() > schema.get("maxItems").asLong()) {
            causes.add(Cause.invalid(path, array.size(), "must have at most " + schema.get("maxItems").asLong()
                    + " items"));
        }
        JsonNode items = schema.get("items");
        for (int i = 0; i < array.size(); i++) {
            walk(array.get(i), items, path + "[" + i + "]", causes, pruned, depth + 1, false);
        }
    }

    private void checkObject(ObjectNode object, JsonNode schema, String path, List<Cause> causes,
            List<String> pruned, int depth, boolean atRoot) {
        JsonNode properties = schema.get("properties");
        JsonNode additional = schema.get("additionalProperties");
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        for (JsonNode required : schema.path("required")) {
            if (!object.has(required.asText())) {
                causes.add(Cause.required(child(path, required.asText()), ""));
            }
        }
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            if (atRoot && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"))) {
                continue; // the server's own, checked as for every type
            }
            if (properties != null && properties.has(name)) {
                walk(field.getValue(), properties.get(name), child(path, name), causes, pruned, depth + 1, false);
            } else if (additional != null && additional.isObject()) {
                walk(field.getValue(), additional, child(path, name), causes, pruned, depth + 1, false);
            } else if (!preserve && !(additional != null && additional.asBoolean(false))) {
                pruned.add(child(path, name));
                fields.remove(); // pruned, as structural schemas prune what they do not declare
            }
        }
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static String jsonType(JsonNode value) {
        if (value.isTextual()) {
            return "string";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        if (value.isNumber()) {
            return "number";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        return value.isArray() ? "array" : "object";
    }

    private static Object display(JsonNode value) {
        return value.isTextual() ? value.asText() : value.toString();
    }
}
