package io.watchgate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.watchgate.types.CoordinationTypes;
import io.watchgate.types.EventTypes;
import io.watchgate.types.WorkloadTypes;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Kubernetes' OpenAPI definitions of the core and meta types, with their descriptions and list and patch
 * extensions, read once (on first use). The file holds the definitions fabric8 generates from the Kubernetes Go
 * types, only those of the built-in groups served and of the apimachinery packages (see
 * {@code KubernetesDefinitionsFileTest}, which keeps it equal to fabric8's).
 */
@ApplicationScoped
public class KubernetesSchemas {

    static final String RESOURCE = "openapi/kubernetes-definitions.json";
    static final String DEFINITIONS = "definitions";
    /** The package of each built-in group's v1 definitions, by group. */
    static final Map<String, String> PACKAGES = Map.of(
            "", "io.k8s.api.core.v1.",
            RbacTypes.GROUP, "io.k8s.api.rbac.v1.",
            CoordinationTypes.GROUP, "io.k8s.api.coordination.v1.",
            WorkloadTypes.APPS, "io.k8s.api.apps.v1.",
            WorkloadTypes.BATCH, "io.k8s.api.batch.v1.",
            EventTypes.GROUP, "io.k8s.api.events.v1.");
    static final String APIMACHINERY = "io.k8s.apimachinery.";

    private final ObjectMapper mapper;
    private volatile Map<String, ObjectNode> definitions;

    KubernetesSchemas(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * Loads the definitions on a worker thread as the server starts, so that the first write to need them (on an
     * event loop) does not read a 0.6 MB file; one that comes sooner waits for the load.
     */
    void preload(@Observes StartupEvent event) {
        Infrastructure.getDefaultWorkerPool().execute(this::definitions);
    }

    /** Whether the definitions are read: until then, the first to need them waits for the load. */
    public boolean loaded() {
        return definitions != null;
    }

    /** The definition named {@code name} ({@code io.k8s.api.core.v1.Pod}), if known. */
    public Optional<ObjectNode> definition(String name) {
        return Optional.ofNullable(definitions().get(name));
    }

    /**
     * The definition of a served type's objects, for the built-in groups' types (no custom resource can be of those
     * groups: theirs are reserved).
     */
    public Optional<String> definitionName(ResourceType type) {
        String prefix = PACKAGES.get(type.group());
        if (prefix == null || !type.version().equals("v1")) {
            return Optional.empty();
        }
        String name = prefix + type.kind();
        return definitions().containsKey(name) ? Optional.of(name) : Optional.empty();
    }

    Map<String, ObjectNode> definitions() {
        Map<String, ObjectNode> loaded = definitions;
        if (loaded == null) {
            synchronized (this) {
                if (definitions == null) {
                    definitions = load();
                }
                loaded = definitions;
            }
        }
        return loaded;
    }

    private Map<String, ObjectNode> load() {
        try (InputStream in = KubernetesSchemas.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            JsonNode definitions = mapper.readTree(in).path(DEFINITIONS);
            Map<String, ObjectNode> kept = new HashMap<>(definitions.size() * 2);
            definitions.fields().forEachRemaining(entry -> kept.put(entry.getKey(), (ObjectNode) entry.getValue()));
            return kept;
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
    }
}
