package io.watchgate.discovery;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.crd.CrdSpec;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The discovery documents kube-apiserver serves, built from the type registry each time they are asked for, so
 * they change as soon as a type is registered or removed.
 */
@ApplicationScoped
public class Discovery {

    /** The aggregated discovery versions kubectl and client-go ask for, newest first. */
    public static final List<String> AGGREGATED_VERSIONS = List.of("v2", "v2beta1");

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");

    private final ResourceTypes types;
    private final DiscoveryConfig config;
    private final CustomResourceTypes customResources;

    Discovery(ResourceTypes types, DiscoveryConfig config, CustomResourceTypes customResources) {
        this.types = types;
        this.config = config;
        this.customResources = customResources;
    }

    /** {@code /version}: a version.Info. */
    public ObjectNode version() {
        String[] parts = config.kubernetesVersion().split("\\.");
        ObjectNode info = JSON.objectNode();
        info.put("major", parts[0]);
        info.put("minor", parts.length > 1 ? parts[1] : "0");
        info.put("gitVersion", "v" + config.kubernetesVersion() + "+watchgate");
        info.put("gitCommit", "");
        info.put("gitTreeState", "clean");
        info.put("buildDate", "");
        info.put("goVersion", "java" + Runtime.version().feature());
        info.put("compiler", "watchgate");
        info.put("platform", System.getProperty("os.name").toLowerCase() + "/" + goArch());
        return info;
    }

    private static String goArch() {
        String arch = System.getProperty("os.arch");
        return switch (arch) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> arch;
        };
    }

    /** {@code /api}: the core group's versions. */
    public ObjectNode coreVersions() {
        ObjectNode versions = JSON.objectNode();
        versions.put("kind", "APIVersions");
        ArrayNode list = versions.putArray("versions");
        groupVersions().getOrDefault("", Map.of()).keySet().forEach(list::add);
        versions.putArray("serverAddressByClientCIDRs");
        return versions;
    }

    /** {@code /apis}: every named group. */
    public ObjectNode groupList() {
        ObjectNode list = JSON.objectNode();
        list.put("kind", "APIGroupList");
        list.put("apiVersion", "v1");
        ArrayNode groups = list.putArray("groups");
        groupVersions().forEach((group, versions) -> {
            if (!group.isEmpty()) {
                groups.add(group(group, versions.keySet()));
            }
        });
        return list;
    }

    /** {@code /apis/{group}}, if the group is served. */
    public Optional<ObjectNode> group(String name) {
        Map<String, List<ResourceType>> versions = groupVersions().get(name);
        if (name.isEmpty() || versions == null) {
            return Optional.empty();
        }
        ObjectNode group = group(name, versions.keySet());
        group.put("kind", "APIGroup");
        group.put("apiVersion", "v1");
        return Optional.of(group);
    }

    private ObjectNode group(String name, java.util.Set<String> versions) {
        ObjectNode group = JSON.objectNode();
        group.put("name", name);
        ArrayNode list = group.putArray("versions");
        List<String> ordered = versions.stream().sorted(VersionPriority.ORDER).toList();
        for (String version : ordered) {
            list.addObject().put("groupVersion", name + "/" + version).put("version", version);
        }
        group.putObject("preferredVersion").put("groupVersion", name + "/" + ordered.get(0))
                .put("version", ordered.get(0));
        return group;
    }

    /** {@code /api/{version}} or {@code /apis/{group}/{version}}: an APIResourceList, if served. */
    public Optional<ObjectNode> resourceList(String group, String version) {
        List<ResourceType> served = groupVersions().getOrDefault(group, Map.of()).get(version);
        if (served == null) {
            return Optional.empty();
        }
        ObjectNode list = JSON.objectNode();
        list.put("kind", "APIResourceList");
        list.put("apiVersion", "v1");
        list.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode resources = list.putArray("resources");
        for (ResourceType type : served) {
            ObjectNode resource = resources.addObject();
            resource.put("name", type.plural());
            resource.put("singularName", type.singular());
            resource.put("namespaced", type.namespaced());
            resource.put("kind", type.kind());
            verbs(resource.putArray("verbs"), type);
            aliases(resource, type);
            if (type.subresources().status()) {
                ObjectNode status = resources.addObject();
                status.put("name", type.plural() + "/status");
                status.put("singularName", "");
                status.put("namespaced", type.namespaced());
                status.put("kind", type.kind());
                STATUS_VERBS.forEach(status.putArray("verbs")::add);
            }
            if (type.subresources().scale()) {
                ObjectNode scale = resources.addObject();
                scale.put("name", type.plural() + "/scale");
                scale.put("singularName", "");
                scale.put("namespaced", type.namespaced());
                scale.put("group", "autoscaling").put("version", "v1").put("kind", "Scale");
                STATUS_VERBS.forEach(scale.putArray("verbs")::add);
            }
        }
        return Optional.of(list);
    }

    /**
     * Aggregated discovery ({@code apidiscovery.k8s.io}): every group, version and resource in one document, for
     * the core group ({@code /api}) or the named groups ({@code /apis}).
     *
     * @param apiVersion "v2" or "v2beta1", as negotiated
     */
    public ObjectNode aggregated(boolean core, String apiVersion) {
        ObjectNode list = JSON.objectNode();
        list.put("kind", "APIGroupDiscoveryList");
        list.put("apiVersion", "apidiscovery.k8s.io/" + apiVersion);
        list.putObject("metadata");
        ArrayNode items = list.putArray("items");
        groupVersions().forEach((group, versions) -> {
            if (group.isEmpty() != core) {
                return;
            }
            ObjectNode item = items.addObject();
            item.putObject("metadata").put("name", group);
            ArrayNode versionList = item.putArray("versions");
            versions.entrySet().stream()
                    .sorted(Map.Entry.comparingByKey(VersionPriority.ORDER))
                    .forEach(entry -> {
                        ObjectNode version = versionList.addObject();
                        version.put("version", entry.getKey());
                        ArrayNode resources = version.putArray("resources");
                        for (ResourceType type : entry.getValue()) {
                            ObjectNode resource = resources.addObject();
                            resource.put("resource", type.plural());
                            resource.putObject("responseKind").put("group", type.group())
                                    .put("version", type.version()).put("kind", type.kind());
                            resource.put("scope", type.namespaced() ? "Namespaced" : "Cluster");
                            resource.put("singularResource", type.singular());
                            verbs(resource.putArray("verbs"), type);
                            aliases(resource, type);
                            if (type.subresources().status()) {
                                ObjectNode status = resource.withArray("subresources").addObject();
                                status.put("subresource", "status");
                                status.putObject("responseKind").put("group", type.group())
                                        .put("version", type.version()).put("kind", type.kind());
                                STATUS_VERBS.forEach(status.putArray("verbs")::add);
                            }
                            if (type.subresources().scale()) {
                                ObjectNode scale = resource.withArray("subresources").addObject();
                                scale.put("subresource", "scale");
                                scale.putObject("responseKind").put("group", "autoscaling").put("version", "v1")
                                        .put("kind", "Scale");
                                STATUS_VERBS.forEach(scale.putArray("verbs")::add);
                            }
                        }
                        version.put("freshness", "Current");
                    });
        });
        return list;
    }

    /** The other names a type goes by in kubectl: its short names and the categories it belongs to. */
    private void aliases(ObjectNode resource, ResourceType type) {
        if (!type.shortNames().isEmpty()) {
            type.shortNames().forEach(resource.putArray("shortNames")::add);
        }
        List<String> categories = customResources.definitionOf(type).map(CrdSpec::categories)
                .orElseGet(() -> types.builtInCategories(type));
        if (!categories.isEmpty()) {
            categories.forEach(resource.putArray("categories")::add);
        }
    }

    private static void verbs(ArrayNode array, ResourceType type) {
        new TreeSet<>(type.verbs()).forEach(array::add);
    }

    /** group → version → types (by plural), all sorted. */
    private Map<String, Map<String, List<ResourceType>>> groupVersions() {
        return types.all().stream().collect(Collectors.groupingBy(ResourceType::group, TreeMap::new,
                Collectors.groupingBy(ResourceType::version, TreeMap::new,
                        Collectors.collectingAndThen(Collectors.toList(), list -> list.stream()
                                .sorted(Comparator.comparing(ResourceType::plural)).toList()))));
    }
}
