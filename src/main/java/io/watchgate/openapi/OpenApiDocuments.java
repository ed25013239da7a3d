package io.watchgate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The OpenAPI documents of the served types, built from the registry when asked for: {@code /openapi/v2}
 * (Swagger 2.0, every type) and {@code /openapi/v3} (an index, then one OpenAPI 3.0 document per group
 * version). kubectl reads v3 for {@code explain} and to learn that the server validates fields itself
 * ({@code fieldValidation} on PATCH).
 */
@ApplicationScoped
public class OpenApiDocuments {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    private static final List<String> ALWAYS = List.of(META + "Status", META + "DeleteOptions", META + "Patch",
            META + "WatchEvent");

    private final ResourceTypes types;
    private final KubernetesSchemas schemas;
    private final CustomResourceTypes customResources;
    private final OpenApiPaths paths = new OpenApiPaths();

    OpenApiDocuments(ResourceTypes types, KubernetesSchemas schemas, CustomResourceTypes customResources) {
        this.types = types;
        this.schemas = schemas;
        this.customResources = customResources;
    }

    /** The rendered documents of one state of the type registry. */
    private record Rendered(long generation, String index, Map<String, String> v3, String v2) {
    }

    private final java.util.concurrent.atomic.AtomicReference<Rendered> rendered =
            new java.util.concurrent.atomic.AtomicReference<>();

    /** {@code /openapi/v3}: where each group version's document is, with a hash that changes with it. */
    public String v3Index() {
        return current().index();
    }

    /** {@code /openapi/v3/api/v1} or {@code /openapi/v3/apis/{group}/{version}}, if served. */
    public Optional<String> v3(String groupVersionPath) {
        return Optional.ofNullable(current().v3().get(groupVersionPath));
    }

    /** {@code /openapi/v2}: every served type in one Swagger 2.0 document. */
    public String v2() {
        return current().v2();
    }

    /** The documents for the registry as it is, rendered again only after it changed. */
    private Rendered current() {
        long generation = types.generation();
        Rendered cached = rendered.get();
        if (cached != null && cached.generation() == generation) {
            return cached;
        }
        ObjectNode index = JSON.objectNode();
        ObjectNode entries = index.putObject("paths");
        Map<String, String> documents = new TreeMap<>();
        byGroupVersion().forEach((path, served) -> {
            String document = v3(served).toString();
            documents.put(path, document);
            entries.putObject(path).put("serverRelativeURL", "/openapi/v3/" + path + "?hash=" + hash(document));
        });
        Rendered fresh = new Rendered(generation, index.toString(), Map.copyOf(documents), v2Document().toString());
        rendered.set(fresh);
        return fresh;
    }

    private ObjectNode v2Document() {
        List<ResourceType> served = types.all().stream().sorted(OpenApiDocuments::byPath).toList();
        ObjectNode document = JSON.objectNode();
        document.put("swagger", "2.0");
        document.putObject("info").put("title", "Kubernetes").put("version", "v1");
        document.set("paths", paths.of(served, this::definitionName, false));
        ObjectNode definitions = document.putObject("definitions");
        definitionsFor(served).forEach((name, schema) -> definitions.set(name, refsTo(schema, "#/definitions/", false)));
        return document;
    }

    private ObjectNode v3(List<ResourceType> served) {
        ObjectNode document = JSON.objectNode();
        document.put("openapi", "3.0.0");
        document.putObject("info").put("title", "Kubernetes").put("version", "v1");
        document.set("paths", paths.of(served, this::definitionName, true));
        ObjectNode components = document.putObject("components").putObject("schemas");
        definitionsFor(served).forEach((name, schema) -> components.set(name,
                refsTo(schema, "#/components/schemas/", true)));
        return document;
    }

    private Map<String, List<ResourceType>> byGroupVersion() {
        return types.all().stream().sorted(OpenApiDocuments::byPath).collect(Collectors.groupingBy(
                type -> type.group().isEmpty() ? "api/" + type.version()
                        : "apis/" + type.group() + "/" + type.version(),
                TreeMap::new, Collectors.toList()));
    }

    private static int byPath(ResourceType a, ResourceType b) {
        return (a.group() + "/" + a.version() + "/" + a.plural()).compareTo(b.group() + "/" + b.version() + "/"
                + b.plural());
    }

    /** The definition name of a type's objects: Kubernetes' own for core types, a generated one otherwise. */
    String definitionName(ResourceType type) {
        return schemas.definitionName(type).orElseGet(() -> {
            List<String> parts = List.of(type.group().split("\\."));
            StringBuilder reversed = new StringBuilder();
            for (int i = parts.size() - 1; i >= 0; i--) {
                reversed.append(parts.get(i)).append('.');
            }
            return reversed + type.version() + "." + type.kind();
        });
    }

    /** Every definition the served types reach, with the group-version-kind extension on each kind. */
    private Map<String, ObjectNode> definitionsFor(List<ResourceType> served) {
        Map<String, ObjectNode> result = new TreeMap<>();
        Deque<String> pending = new ArrayDeque<>(ALWAYS);
        for (ResourceType type : served) {
            String name = definitionName(type);
            String list = name + "List";
            if (schemas.definition(name).isPresent()) {
                pending.add(name);
                pending.add(list);
            } else {
                result.put(name, customResources.openApiSchema(type)
                        .map(schema -> withObjectFields((ObjectNode) schema.deepCopy()))
                        .orElseGet(() -> genericObject(type)));
                result.put(list, genericList(type, name));
            }
            pending.add(META + "ObjectMeta");
            pending.add(META + "ListMeta");
        }
        while (!pending.isEmpty()) {
            String name = pending.pop();
            if (result.containsKey(name)) {
                continue;
            }
            ObjectNode definition = schemas.definition(name).map(ObjectNode::deepCopy)
                    .orElseGet(() -> JSON.objectNode().put("type", "object")
                            .put("x-kubernetes-preserve-unknown-fields", true));
            definition.remove("x-fabric8-info");
            result.put(name, definition);
            collectRefs(definition, pending);
        }
        for (ResourceType type : served) {
            gvk(result.get(definitionName(type)), type, type.kind());
            gvk(result.get(definitionName(type) + "List"), type, type.listKind());
        }
        return result;
    }

    private static void gvk(ObjectNode definition, ResourceType type, String kind) {
        definition.putArray("x-kubernetes-group-version-kind").addObject()
                .put("group", type.group()).put("kind", kind).put("version", type.version());
    }

    private static void collectRefs(JsonNode node, Deque<String> pending) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.asText().startsWith("#/definitions/")) {
                pending.add(ref.asText().substring("#/definitions/".length()));
            }
            node.elements().forEachRemaining(child -> collectRefs(child, pending));
        } else if (node.isArray()) {
            node.elements().forEachRemaining(child -> collectRefs(child, pending));
        }
    }

    /** Rewrites references for the document's layout; for OpenAPI 3.0 a reference with siblings goes in allOf. */
    private static JsonNode refsTo(JsonNode node, String prefix, boolean v3) {
        if (node.isObject()) {
            ObjectNode copy = JSON.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (field.getKey().equals("$ref") && field.getValue().asText().startsWith("#/definitions/")) {
                    copy.put("$ref", prefix + field.getValue().asText().substring("#/definitions/".length()));
                } else {
                    copy.set(field.getKey(), refsTo(field.getValue(), prefix, v3));
                }
            }
            if (v3 && copy.has("$ref") && copy.size() > 1) {
                ObjectNode wrapped = copy.deepCopy();
                wrapped.remove("$ref");
                wrapped.putArray("allOf").addObject().put("$ref", copy.get("$ref").asText());
                return wrapped;
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JSON.arrayNode();
            node.forEach(element -> copy.add(refsTo(element, prefix, v3)));
            return copy;
        }
        return node;
    }

    /** A definition's schema, with the fields every object has described as Kubernetes describes them. */
    private static ObjectNode withObjectFields(ObjectNode schema) {
        if (schema.has("properties") && !schema.get("properties").isObject()) {
            schema.remove("properties"); // not stored by a current server (CrdSpec checks the shape); never fatal here
        }
        ObjectNode properties = schema.withObject("/properties");
        properties.putObject("apiVersion").put("type", "string");
        properties.putObject("kind").put("type", "string");
        properties.putObject("metadata").put("$ref", "#/definitions/" + META + "ObjectMeta");
        return schema;
    }

    private static ObjectNode genericObject(ResourceType type) {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        schema.put("description", type.kind() + " of " + type.apiVersion() + " (no schema: any fields are kept)");
        schema.put("x-kubernetes-preserve-unknown-fields", true);
        return withObjectFields(schema);
    }

    private static ObjectNode genericList(ResourceType type, String itemName) {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        schema.put("description", type.listKind() + " is a list of " + type.kind());
        schema.putArray("required").add("items");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("apiVersion").put("type", "string");
        properties.putObject("kind").put("type", "string");
        properties.putObject("metadata").put("$ref", "#/definitions/" + META + "ListMeta");
        properties.putObject("items").put("type", "array").putObject("items").put("$ref", "#/definitions/" + itemName);
        return schema;
    }

    private static String hash(String document) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512").digest(document.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-512 is always available", e);
        }
    }

}
