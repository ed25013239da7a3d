package io.watchgate.types;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The registry of served types, looked up by group, version and plural. Core types and
 * CustomResourceDefinitions are registered at start; each CustomResourceDefinition registers its own types.
 */
@ApplicationScoped
public class ResourceTypes {

    private final Map<String, ResourceType> byPath = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();

    public ResourceTypes() {
        CoreTypes.ALL.forEach(this::register);
        register(ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS);
        RbacTypes.ALL.forEach(this::register);
        ReviewTypes.ALL.forEach(this::register);
        CoordinationTypes.ALL.forEach(this::register);
        WorkloadTypes.ALL.forEach(this::register);
        EventTypes.ALL.forEach(this::register);
    }

    public void register(ResourceType type) {
        byPath.put(pathKey(type.group(), type.version(), type.plural()), type);
        generation.incrementAndGet();
    }

    /** Stops serving a type (its CustomResourceDefinition went away or stopped serving that version). */
    public void unregister(String group, String version, String plural) {
        byPath.remove(pathKey(group, version, plural));
        generation.incrementAndGet();
    }

    /** Counts changes to the registry: what is derived from it can be kept until this moves. */
    public long generation() {
        return generation.get();
    }

    public Optional<ResourceType> find(String group, String version, String plural) {
        return Optional.ofNullable(byPath.get(pathKey(group, version, plural)));
    }

    public ResourceType namespaces() {
        return CoreTypes.NAMESPACES;
    }

    /** Whether the server defines {@code type} itself, rather than a CustomResourceDefinition. */
    public boolean isBuiltIn(ResourceType type) {
        return CoreTypes.ALL.contains(type) || ApiExtensionsTypes.isCustomResourceDefinitions(type)
                || RbacTypes.ALL.contains(type) || ReviewTypes.isReview(type) || CoordinationTypes.ALL.contains(type)
                || WorkloadTypes.ALL.contains(type) || EventTypes.ALL.contains(type);
    }

    /**
     * The categories a built-in type belongs to ({@code kubectl get all} lists the {@code all} category); a
     * custom type's come from its definition.
     */
    public List<String> builtInCategories(ResourceType type) {
        if (WorkloadTypes.ALL.contains(type)) {
            return List.of("all"); // kubectl get all lists every workload
        }
        return CoreTypes.ALL.contains(type) ? CoreTypes.CATEGORIES.getOrDefault(type.plural(), List.of()) : List.of();
    }

    public List<ResourceType> all() {
        return List.copyOf(byPath.values());
    }

    private static String pathKey(String group, String version, String plural) {
        return group + "/" + version + "/" + plural;
    }
}
