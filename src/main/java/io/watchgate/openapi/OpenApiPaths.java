package io.watchgate.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.patch.Patcher;
import io.watchgate.types.ResourceType;
import java.util.List;
import java.util.function.Function;

/**
 * The paths and operations of the served types, in OpenAPI 3.0 or Swagger 2.0 form, each operation tagged with
 * Kubernetes' {@code x-kubernetes-action} and {@code x-kubernetes-group-version-kind}.
 */
final class OpenApiPaths {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String PATCH = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
    private static final String STATUS = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
    private static final String DELETE_OPTIONS = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
    private static final List<String> LIST_QUERY = List.of("labelSelector", "fieldSelector", "limit", "continue",
            "resourceVersion", "resourceVersionMatch", "watch", "allowWatchBookmarks", "sendInitialEvents",
            "timeoutSeconds");
    /** kubectl looks for fieldValidation on PATCH to know the server checks fields itself. */
    private static final List<String> WRITE_QUERY = List.of("dryRun", "fieldManager", "fieldValidation");

    /** One document's paths; {@code v3} picks the OpenAPI 3.0 shapes over Swagger 2.0. */
    ObjectNode of(List<ResourceType> types, Function<ResourceType, String> definitionName, boolean v3) {
        ObjectNode paths = JSON.objectNode();
        for (ResourceType type : types) {
            Document document = new Document(type, definitionName.apply(type), v3);
            String root = type.group().isEmpty() ? "/api/" + type.version()
                    : "/apis/" + type.group() + "/" + type.version();
            String collection = type.namespaced() ? root + "/namespaces/{namespace}/" + type.plural()
                    : root + "/" + type.plural();
            ObjectNode items = paths.putObject(collection);
            document.pathParameters(items, type.namespaced(), false);
            if (type.verbs().contains("list")) {
                items.set("get", document.operation("list", "list", LIST_QUERY, null, document.listSchema()));
            }
            if (type.verbs().contains("create")) {
                items.set("post", document.operation("create", "post", WRITE_QUERY, document.objectSchema(),
                        document.objectSchema()));
            }
            if (type.verbs().contains("deletecollection")) {
                items.set("delete", document.operation("deletecollection", "deletecollection", List.of("dryRun"),
                        DELETE_OPTIONS, STATUS));
            }
            ObjectNode item = paths.putObject(collection + "/{name}");
            document.pathParameters(item, type.namespaced(), true);
            if (type.verbs().contains("get")) {
                item.set("get", document.operation("read", "get", List.of("resourceVersion"), null,
                        document.objectSchema()));
            }
            if (type.verbs().contains("update")) {
                item.set("put", document.operation("replace", "put", WRITE_QUERY, document.objectSchema(),
                        document.objectSchema()));
            }
            if (type.verbs().contains("patch")) {
                item.set("patch", document.operation("patch", "patch", WRITE_QUERY, PATCH, document.objectSchema()));
            }
            if (type.verbs().contains("delete")) {
                item.set("delete", document.operation("delete", "delete", List.of("dryRun", "gracePeriodSeconds",
                        "propagationPolicy"), DELETE_OPTIONS, document.objectSchema()));
            }
            if (type.namespaced() && type.verbs().contains("list")) {
                ObjectNode all = paths.putObject(root + "/" + type.plural());
                all.set("get", document.operation("listForAllNamespaces", "list", LIST_QUERY, null,
                        document.listSchema()));
            }
        }
        return paths;
    }

    /** The operations of one type. */
    private record Document(ResourceType type, String definition, boolean v3) {

        String objectSchema() {
            return definition;
        }

        String listSchema() {
            return definition + "List";
        }

        ObjectNode ref(String name) {
            return JSON.objectNode().put("$ref", (v3 ? "#/components/schemas/" : "#/definitions/") + name);
        }

        void pathParameters(ObjectNode path, boolean namespaced, boolean named) {
            ArrayNode parameters = path.putArray("parameters");
            if (named) {
                parameters.add(parameter("name", "path", "name of the " + type.kind()));
            }
            if (namespaced) {
                parameters.add(parameter("namespace", "path", "object name and auth scope, such as for teams and "
                        + "projects"));
            }
        }

        ObjectNode parameter(String name, String in, String description) {
            ObjectNode parameter = JSON.objectNode().put("name", name).put("in", in).put("description", description);
            if (in.equals("path")) {
                parameter.put("required", true);
            }
            if (v3) {
                parameter.putObject("schema").put("type", "string").put("uniqueItems", true);
            } else {
                parameter.put("type", "string").put("uniqueItems", true);
            }
            return parameter;
        }

        ObjectNode operation(String verb, String action, List<String> query, String body, String response) {
            ObjectNode operation = JSON.objectNode();
            String namespaced = type.namespaced() && !verb.equals("listForAllNamespaces") ? "Namespaced" : "";
            operation.put("operationId", verb + groupVersionPart() + namespaced + type.kind());
            operation.putArray("tags").add(groupVersionPart());
            ArrayNode parameters = operation.putArray("parameters");
            for (String name : query) {
                parameters.add(parameter(name, "query", name));
            }
            if (body != null) {
                if (v3) {
                    ObjectNode content = operation.putObject("requestBody").put("required", true).putObject("content");
                    List<String> mediaTypes = action.equals("patch") ? patchMediaTypes() : List.of("*/*");
                    mediaTypes.forEach(mediaType -> content.putObject(mediaType).set("schema", ref(body)));
                } else {
                    ObjectNode parameter = parameters.addObject().put("name", "body").put("in", "body")
                            .put("required", true);
                    parameter.set("schema", ref(body));
                }
            }
            ObjectNode ok = operation.putObject("responses").putObject("200").put("description", "OK");
            if (v3) {
                ok.putObject("content").putObject("application/json").set("schema", ref(response));
            } else {
                ok.set("schema", ref(response));
            }
            operation.put("x-kubernetes-action", action);
            operation.putObject("x-kubernetes-group-version-kind").put("group", type.group())
                    .put("kind", type.kind()).put("version", type.version());
            return operation;
        }

        private List<String> patchMediaTypes() {
            return Patcher.acceptedMediaTypes(type);
        }

        /** "CoreV1", or "ExampleComV1" for group example.com. */
        private String groupVersionPart() {
            StringBuilder part = new StringBuilder();
            String group = type.group().isEmpty() ? "core" : type.group();
            for (String word : group.split("[.-]")) {
                if (!word.isEmpty()) {
                    part.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
                }
            }
            return part.toString() + Character.toUpperCase(type.version().charAt(0)) + type.version().substring(1);
        }
    }
}
