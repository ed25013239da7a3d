package io.watchgate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The fields of an object that its type's schema does not know, as {@code fieldValidation} reports them
 * ("spec.containers[0].imagePullPolice"), by Kubernetes' definitions for core types and by their
 * CustomResourceDefinition's schema for custom types. Types without a schema accept any field.
 */
@ApplicationScoped
public class UnknownFields {

    private static final String REF_PREFIX = "#/definitions/";

    private final KubernetesSchemas schemas;
    private final CustomResourceTypes customResources;

    UnknownFields(KubernetesSchemas schemas, CustomResourceTypes customResources) {
        this.schemas = schemas;
        this.customResources = customResources;
    }

    public List<String> of(ResourceType type, JsonNode object) {
        if (!type.group().isEmpty() && object.isObject()) {
            return customResources.undeclaredFields(type, (com.fasterxml.jackson.databind.node.ObjectNode) object);
        }
        List<String> unknown = new ArrayList<>();
        schemas.definitionName(type).flatMap(schemas::definition)
                .ifPresent(schema -> walk(object, schema, "", unknown, 0));
        return unknown;
    }

    private void walk(JsonNode value, JsonNode schema, String path, List<String> unknown, int depth) {
        if (depth > 100 || value == null || value.isNull()) {
            return;
        }
        JsonNode resolved = resolve(schema);
        if (resolved == null || resolved.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            return;
        }
        if (value.isObject()) {
            JsonNode properties = resolved.get("properties");
            JsonNode additional = resolved.get("additionalProperties");
            Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String where = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (properties != null && properties.has(field.getKey())) {
                    walk(field.getValue(), properties.get(field.getKey()), where, unknown, depth + 1);
                } else if (additional != null && additional.isObject()) {
                    walk(field.getValue(), additional, where, unknown, depth + 1);
                } else if (properties != null) {
                    unknown.add(where);
                }
            }
        } else if (value.isArray() && resolved.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                walk(value.get(i), resolved.get("items"), path + "[" + i + "]", unknown, depth + 1);
            }
        }
    }

    /** A schema with its {@code $ref} followed; null for a reference to a definition not kept (any field goes). */
    private JsonNode resolve(JsonNode schema) {
        JsonNode ref = schema.get("$ref");
        if (ref == null) {
            return schema;
        }
        String text = ref.asText();
        if (!text.startsWith(REF_PREFIX)) {
            return null;
        }
        return schemas.definition(text.substring(REF_PREFIX.length())).orElse(null);
    }
}
