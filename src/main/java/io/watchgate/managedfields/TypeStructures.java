package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Context;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.http.TooLongForAnEventLoop;
import io.watchgate.openapi.KubernetesSchemas;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The structure of each served type's objects: for the built-in groups from Kubernetes' OpenAPI definitions (the
 * ones strategic merge reads), for custom resources from their definition's {@code openAPIV3Schema} (read again
 * when the definition changes it); for anything else untyped. Every object's {@code metadata} is ObjectMeta's.
 */
@ApplicationScoped
public class TypeStructures {

    private static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

    private record Read(JsonNode schema, Structure root) {
    }

    private final KubernetesSchemas schemas;
    private final CustomResourceTypes customResources;
    private final ResourceTypes types;
    private final StructureReader definitions;
    /** Kept while its type is served: a type gone (its definition deleted or changed) is dropped. */
    private final Map<ResourceType, Read> read = new ConcurrentHashMap<>();
    private final AtomicLong typesSeen = new AtomicLong(-1);

    TypeStructures(KubernetesSchemas schemas, CustomResourceTypes customResources, ResourceTypes types) {
        this.schemas = schemas;
        this.customResources = customResources;
        this.types = types;
        this.definitions = new StructureReader(schemas::definition);
    }

    /**
     * @throws TooLongForAnEventLoop on an event loop, while Kubernetes' definitions are still being loaded (in the
     *                               first moments after a start): a write that would wait for them goes on a worker
     */
    public Structure of(ResourceType type) {
        forgetTypesNoLongerServed();
        Optional<JsonNode> custom = customResources.openApiSchema(type);
        Read known = read.get(type);
        if (known != null && known.schema() == custom.orElse(null)) {
            return known.root();
        }
        if (!schemas.loaded() && Context.isOnEventLoopThread()) {
            throw new TooLongForAnEventLoop("reading the schema of " + type.resource());
        }
        Read fresh = new Read(custom.orElse(null), build(type, custom));
        read.put(type, fresh);
        return fresh.root();
    }

    private void forgetTypesNoLongerServed() {
        long generation = types.generation();
        long seen = typesSeen.get();
        if (seen != generation && typesSeen.compareAndSet(seen, generation)) {
            read.keySet().removeIf(type -> !types.find(type.group(), type.version(), type.plural())
                    .filter(type::equals).isPresent());
        }
    }

    private Structure build(ResourceType type, Optional<JsonNode> custom) {
        synchronized (definitions) {
            Optional<String> definition = schemas.definitionName(type);
            if (definition.isPresent()) {
                return definitions.definition(definition.get());
            }
            Structure root = custom.map(schema -> new StructureReader(name -> Optional.empty()).read(schema))
                    .filter(structure -> structure.shape() == Structure.Shape.MAP)
                    .orElseGet(() -> untypedObject());
            root.fields.put("apiVersion", Structure.SCALAR);
            root.fields.put("kind", Structure.SCALAR);
            root.fields.put("metadata", definitions.definition(OBJECT_META));
            return root;
        }
    }

    private static Structure untypedObject() {
        Structure root = new Structure(Structure.Shape.MAP);
        root.element = Structure.UNTYPED;
        return root;
    }
}
