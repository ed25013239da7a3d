package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads structures from OpenAPI schemas as kube-openapi's schemaconv does: {@code x-kubernetes-list-type} (with
 * {@code x-kubernetes-list-map-keys}) first, else the patch strategy, else atomic lists; {@code
 * x-kubernetes-map-type}; free-form objects and {@code x-kubernetes-preserve-unknown-fields} untyped. Definitions
 * named by {@code $ref} are read once each, so recursive ones end.
 */
final class StructureReader {

    private final Function<String, Optional<ObjectNode>> definitions;
    private final Map<String, Structure> read = new HashMap<>();

    /** @param definitions the definitions {@code $ref}s name, by the last segment of the reference */
    StructureReader(Function<String, Optional<ObjectNode>> definitions) {
        this.definitions = definitions;
    }

    Structure definition(String name) {
        Structure known = read.get(name);
        if (known != null) {
            return known;
        }
        Optional<ObjectNode> schema = definitions.apply(name);
        if (schema.isEmpty()) {
            return Structure.UNTYPED;
        }
        return read(schema.get(), name);
    }

    Structure read(JsonNode schema) {
        return read(schema, null);
    }

    /** @param name the definition being read, remembered before its fields are, for the references inside it */
    private Structure read(JsonNode schema, String name) {
        if (schema == null || !schema.isObject()) {
            return Structure.UNTYPED;
        }
        JsonNode ref = schema.get("$ref");
        if (ref == null && schema.path("allOf").size() == 1) {
            ref = schema.path("allOf").get(0).get("$ref");
        }
        if (ref != null && ref.isTextual()) {
            String text = ref.textValue();
            return definition(text.substring(text.lastIndexOf('/') + 1));
        }
        if (schema.path("x-kubernetes-int-or-string").asBoolean() || "int-or-string".equals(schema.path("format")
                .asText())) {
            return scalar(schema);
        }
        String type = schema.path("type").asText("");
        boolean preserveUnknown = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean();
        JsonNode properties = schema.get("properties");
        JsonNode additional = schema.get("additionalProperties");
        if (type.equals("array")) {
            Structure list = remember(new Structure(Structure.Shape.LIST), name);
            list.element = read(schema.get("items"));
            listType(schema, list);
            return list;
        }
        if (type.equals("object") || properties != null || additional != null) {
            if (properties == null && (additional == null || additional.isBoolean())) {
                return Structure.UNTYPED; // free-form: nothing is known of its members
            }
            Structure map = remember(new Structure(Structure.Shape.MAP), name);
            map.atomic = "atomic".equals(schema.path("x-kubernetes-map-type").asText());
            if (properties != null) {
                for (Iterator<Map.Entry<String, JsonNode>> fields = properties.fields(); fields.hasNext();) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    map.fields.put(field.getKey(), read(field.getValue()));
                }
            }
            if (additional != null && additional.isObject()) {
                map.element = read(additional);
            } else if (preserveUnknown || additional != null && additional.asBoolean()) {
                map.element = Structure.UNTYPED;
            }
            return map;
        }
        if (type.isEmpty()) {
            return Structure.UNTYPED;
        }
        return scalar(schema);
    }

    private Structure remember(Structure structure, String name) {
        if (name != null) {
            read.put(name, structure);
        }
        return structure;
    }

    private static Structure scalar(JsonNode schema) {
        JsonNode defaultValue = schema.get("default");
        if (defaultValue == null || defaultValue.isContainerNode() || defaultValue.isNull()) {
            return Structure.SCALAR;
        }
        Structure scalar = new Structure(Structure.Shape.SCALAR);
        scalar.defaultValue = defaultValue;
        return scalar;
    }

    private static void listType(JsonNode schema, Structure list) {
        String declared = schema.path("x-kubernetes-list-type").asText("");
        List<String> keys = new ArrayList<>();
        for (JsonNode key : schema.path("x-kubernetes-list-map-keys")) {
            keys.add(key.asText());
        }
        if (declared.isEmpty()) {
            // only where no list type is declared does the patch strategy say how the list merges
            List<String> strategy = List.of(schema.path("x-kubernetes-patch-strategy").asText("").split(","));
            String mergeKey = schema.path("x-kubernetes-patch-merge-key").asText("");
            if (strategy.contains("merge")) {
                declared = mergeKey.isEmpty() ? "set" : "map";
                keys = mergeKey.isEmpty() ? List.of() : List.of(mergeKey);
            }
        }
        switch (declared) {
            case "set" -> list.listType = Structure.ListType.SET;
            case "map" -> {
                if (!keys.isEmpty()) {
                    list.listType = Structure.ListType.MAP;
                    list.keys = List.copyOf(keys);
                }
            }
            default -> list.listType = Structure.ListType.ATOMIC;
        }
    }
}
