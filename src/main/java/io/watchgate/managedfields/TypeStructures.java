package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.openapi.KubernetesSchemas;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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
    private final StructureReader definitions;
    private final Map<ResourceType, Read> read = new ConcurrentHashMap<>();

    TypeStructures(KubernetesSchemas schemas, CustomResourceTypes customResources) {
        this.schemas = schemas;
        this.customResources = customResources;
        this.definitions = new StructureReader(schemas::definition);
    }

    public Structure of(ResourceType type) {
        Optional<JsonNode> custom = customResources.openApiSchema(type);
        Read known = read.get(type);
        if (known != null && known.schema() == custom.orElse(null)) {
            return known.root();
        }
        Read fresh = new Read(custom.orElse(null), build(type, custom));
        read.put(type, fresh);
        return fresh.root();
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
