package io.watchgate.crd;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.status.ApiException;
import io.watchgate.status.Causes;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ApiExtensionsTypes;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the registry of served types in step with the stored CustomResourceDefinitions: a committed definition
 * serves its versions at once (in the commit that stores it), a changed one serves its current versions, and a
 * deleted one stops serving them. It keeps each served version's schema, which writes of its objects conform to.
 */
@ApplicationScoped
public class CustomResourceTypes {

    private final Store store;
    private final ResourceTypes types;
    private final Map<String, StructuralSchema> schemas = new ConcurrentHashMap<>();
    private final Map<String, CrdSpec> definitions = new ConcurrentHashMap<>();

    CustomResourceTypes(Store store, ResourceTypes types) {
        this.store = store;
        this.types = types;
    }

    void start(@Observes StartupEvent startup) {
        store.addCommitListener(this::committed);
        KeyRange definitions = KeyRange.allOf(ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.resource());
        for (StoredObject crd : store.list(definitions, store.currentRevision(), null, Integer.MAX_VALUE,
                object -> true, false).items()) {
            serve(crd);
        }
    }

    private void committed(ChangeEvent event) {
        if (!event.key().resource().equals(ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.resource())) {
            return;
        }
        if (event.type() == EventType.DELETED) {
            stopServing(event.previous() != null ? event.previous() : event.object());
            return;
        }
        // serve the new state first, then drop only what it no longer serves: no request sees a gap
        CrdSpec served = serve(event.object());
        if (event.previous() != null) {
            java.util.Set<String> kept = new java.util.HashSet<>();
            served.servedTypes().forEach(type -> kept.add(schemaKey(type.group(), type.version(), type.plural())));
            for (ResourceType type : CrdSpec.read(event.previous().tree()).servedTypes()) {
                String key = schemaKey(type.group(), type.version(), type.plural());
                if (!kept.contains(key)) {
                    types.unregister(type.group(), type.version(), type.plural());
                    schemas.remove(key);
                }
            }
        }
    }

    private CrdSpec serve(StoredObject crd) {
        CrdSpec spec = CrdSpec.read(crd.tree());
        definitions.put(spec.group() + "/" + spec.plural(), spec);
        for (CrdSpec.Version version : spec.versions()) {
            String key = schemaKey(spec.group(), version.name(), spec.plural());
            if (version.served() && version.schema() != null) {
                schemas.put(key, new StructuralSchema(version.schema()));
            } else {
                schemas.remove(key);
            }
        }
        spec.servedTypes().forEach(types::register);
        return spec;
    }

    private void stopServing(StoredObject crd) {
        CrdSpec spec = CrdSpec.read(crd.tree());
        definitions.remove(spec.group() + "/" + spec.plural());
        for (ResourceType type : spec.servedTypes()) {
            types.unregister(type.group(), type.version(), type.plural());
            schemas.remove(schemaKey(type.group(), type.version(), type.plural()));
        }
    }

    /**
     * Applies the type's schema, if a CustomResourceDefinition gave it one, to an object about to be stored:
     * prunes undeclared fields, refuses an invalid object with 422 and a cause per problem, and sets its
     * apiVersion to the definition's storage version.
     */
    public void conform(ResourceType type, ObjectNode object) {
        StructuralSchema schema = schemas.get(schemaKey(type.group(), type.version(), type.plural()));
        Causes causes = schema == null ? new Causes() : schema.apply(object);
        if (!causes.isEmpty()) {
            throw ApiException.invalid(type.group(), type.kind(), object.path("metadata").path("name").asText(""),
                    causes);
        }
        // kept at the storage version, as Kubernetes keeps it: a write at another version that changes nothing
        // else changes nothing (reads convert to the version asked for)
        definitionOf(type).flatMap(CrdSpec::storageVersion)
                .ifPresent(version -> object.put("apiVersion", type.group() + "/" + version));
    }

    /** The definition behind a served custom type, with the version the type is. */
    public java.util.Optional<CrdSpec.Version> versionOf(ResourceType type) {
        CrdSpec spec = definitions.get(type.group() + "/" + type.plural());
        return spec == null ? java.util.Optional.empty() : spec.version(type.version());
    }

    /**
     * The fields of {@code object} its type's schema does not declare (pruning would drop them), the first
     * {@code max} by path; none without a schema.
     */
    public UndeclaredFields undeclaredFields(ResourceType type, ObjectNode object, int max) {
        StructuralSchema schema = schemas.get(schemaKey(type.group(), type.version(), type.plural()));
        return schema == null ? new UndeclaredFields(max) : schema.undeclaredFields(object, max);
    }

    /** The version's schema as the definition gives it, for OpenAPI; empty without one. */
    public java.util.Optional<com.fasterxml.jackson.databind.JsonNode> openApiSchema(ResourceType type) {
        return versionOf(type).map(CrdSpec.Version::schema);
    }

    /** The definition behind a served custom type. */
    public java.util.Optional<CrdSpec> definitionOf(ResourceType type) {
        return java.util.Optional.ofNullable(definitions.get(type.group() + "/" + type.plural()));
    }

    private static String schemaKey(String group, String version, String plural) {
        return group + "/" + version + "/" + plural;
    }
}
