package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.types.ResourceType;
import java.util.List;

/**
 * What a request body must agree with before it is stored: its kind and apiVersion with the URL's type, its
 * namespace and name with the path. Missing kind, apiVersion, namespace and name are filled in.
 */
final class BodyRules {

    private BodyRules() {
    }

    static ObjectNode requireObject(JsonNode body, ResourceType type) {
        if (body == null || !body.isObject()) {
            throw ApiException.undecodable(type.kind(), type.version(), "the body must be a JSON object");
        }
        return (ObjectNode) body;
    }

    /**
     * @param namespace the path's namespace ("" for cluster-scoped types)
     * @param name      the path's name, or null when posting to a collection
     */
    static void conform(ResourceType type, ObjectNode object, String namespace, String name) {
        String kind = textOrNull(object, "kind", type);
        if (kind != null && !kind.equals(type.kind())) {
            throw ApiException.badRequest("the kind of the object (" + kind + ") does not match the kind "
                    + type.kind() + " of the request URL");
        }
        String apiVersion = textOrNull(object, "apiVersion", type);
        if (apiVersion != null && !apiVersion.equals(type.apiVersion())) {
            throw ApiException.badRequest("the API version in the data (" + apiVersion
                    + ") does not match the expected API version (" + type.apiVersion() + ")");
        }
        putFirst(object, "apiVersion", type.apiVersion());
        putFirst(object, "kind", type.kind());
        JsonNode metadataNode = object.get("metadata");
        if (metadataNode != null && !metadataNode.isObject() && !metadataNode.isNull()) {
            throw ApiException.undecodable(type.kind(), type.version(), "metadata must be a JSON object");
        }
        ObjectNode metadata = object.withObject("/metadata");
        for (String field : new String[] { "name", "generateName", "namespace", "resourceVersion" }) {
            JsonNode value = metadata.get(field);
            if (value != null && !value.isTextual() && !value.isNull()) {
                throw ApiException.undecodable(type.kind(), type.version(), "metadata." + field + " must be a string");
            }
        }
        String bodyNamespace = metadata.path("namespace").asText("");
        if (type.namespaced()) {
            if (!bodyNamespace.isEmpty() && !bodyNamespace.equals(namespace)) {
                throw ApiException.badRequest("the namespace of the provided object (" + bodyNamespace
                        + ") does not match the namespace sent on the request (" + namespace + ")");
            }
            metadata.put("namespace", namespace);
        } else {
            metadata.remove("namespace");
        }
        if (name != null) {
            String bodyName = metadata.path("name").asText("");
            if (!bodyName.isEmpty() && !bodyName.equals(name)) {
                throw ApiException.badRequest("the name of the object (" + bodyName
                        + ") does not match the name on the URL (" + name + ")");
            }
            metadata.put("name", name);
        }
    }

    /** Kubernetes objects read best with kind and apiVersion first; a body without them gets them there. */
    private static void putFirst(ObjectNode object, String field, String value) {
        if (object.has(field)) {
            object.put(field, value);
            return;
        }
        ObjectNode rest = object.deepCopy();
        object.removeAll();
        object.put(field, value);
        object.setAll(rest);
    }

    private static String textOrNull(ObjectNode object, String field, ResourceType type) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull() || (value.isTextual() && value.textValue().isEmpty())) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.undecodable(type.kind(), type.version(), field + " must be a string");
        }
        return value.textValue();
    }

    /** The resourceVersion the client based its write on, or 0 when it sent none. */
    static long expectedRevision(ResourceType type, ObjectNode object) {
        String rv = object.path("metadata").path("resourceVersion").asText("");
        if (rv.isEmpty()) {
            return 0;
        }
        try {
            long revision = rv.chars().allMatch(c -> c >= '0' && c <= '9') ? Long.parseLong(rv) : -1;
            if (revision >= 0) {
                return revision; // "0" asks for no precondition, as in Kubernetes
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.invalid(type.group(), type.kind(), object.path("metadata").path("name").asText(""),
                List.of(Cause.invalid("metadata.resourceVersion", rv,
                        "must be a non-negative integer")));
    }
}
