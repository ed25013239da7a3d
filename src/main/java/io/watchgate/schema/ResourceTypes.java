package io.watchgate.schema;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The registry of served types, looked up by group, version and plural. Core types are registered at start;
 * CustomResourceDefinitions will register theirs through {@link #register}.
 */
@ApplicationScoped
public class ResourceTypes {

    private final Map<String, ResourceType> byPath = new ConcurrentHashMap<>();

    public ResourceTypes() {
        CoreTypes.ALL.forEach(this::register);
    }

    public void register(ResourceType type) {
        byPath.put(pathKey(type.group(), type.version(), type.plural()), type);
    }

    public Optional<ResourceType> find(String group, String version, String plural) {
        return Optional.ofNullable(byPath.get(pathKey(group, version, plural)));
    }

    public ResourceType namespaces() {
        return CoreTypes.NAMESPACES;
    }

    public List<ResourceType> all() {
        return List.copyOf(byPath.values());
    }

    private static String pathKey(String group, String version, String plural) {
        return group + "/" + version + "/" + plural;
    }
}
