package io.watchgate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import io.watchgate.crd.UndeclaredFields;
import io.watchgate.status.FieldPath;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

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

    /** The unknown fields of {@code object}: the paths of the first {@code max}, and how many there are. */
    public UndeclaredFields of(ResourceType type, JsonNode object, int max) {
        Optional<String> builtIn = schemas.definitionName(type);
        if (builtIn.isEmpty() && !type.group().isEmpty() && object.isObject()) {
            return customResources.undeclaredFields(type, (com.fasterxml.jackson.databind.node.ObjectNode) object, max);
        }
        UndeclaredFields unknown = new UndeclaredFields(max);
        builtIn.flatMap(schemas::definition)
                .ifPresent(schema -> walk(object, schema, FieldPath.ROOT, unknown, 0));
        return unknown;
    }

    /** One pass, linear in the object: a path becomes text only for the fields reported. */
    private void walk(JsonNode value, JsonNode schema, FieldPath path, UndeclaredFields unknown, int depth) {
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
                FieldPath where = path.field(field.getKey());
                JsonNode declared = properties == null ? null : properties.get(field.getKey());
                if (declared != null) {
                    walk(field.getValue(), declared, where, unknown, depth + 1);
                } else if (additional != null && additional.isObject()) {
                    walk(field.getValue(), additional, where, unknown, depth + 1);
                } else if (properties != null) {
                    unknown.add(where, field.getKey());
                }
            }
        } else if (value.isArray() && resolved.has("items")) {
            JsonNode items = resolved.get("items");
            for (int i = 0; i < value.size(); i++) {
                walk(value.get(i), items, path.index(i), unknown, depth + 1);
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
