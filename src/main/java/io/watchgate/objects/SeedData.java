package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.status.ApiException;
import io.watchgate.store.StoreException;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Creates the objects of a directory of manifests at start ({@code watchgate.seed.dir}), for demos and dev
 * mode: namespaces and CustomResourceDefinitions first, so that what lives in them can follow; objects that exist
 * already (a durable store's second start) are left as they are. A manifest that cannot be created stops the
 * start, naming its file.
 */
@ApplicationScoped
public class SeedData {

    private static final Logger LOG = Logger.getLogger(SeedData.class);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final SeedConfig config;
    private final ResourceTypes types;
    private final ObjectWrites writes;

    SeedData(SeedConfig config, ResourceTypes types, ObjectWrites writes) {
        this.config = config;
        this.types = types;
        this.writes = writes;
    }

    /** After the default namespace exists (its observer has the default priority). */
    void seed(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.APPLICATION + 600) StartupEvent event)
            throws IOException {
        Optional<Path> dir = config.dir();
        if (dir.isEmpty()) {
            return;
        }
        List<Manifest> manifests = read(dir.get());
        manifests.sort(Comparator.comparingInt(Manifest::order));
        int created = 0;
        for (Manifest manifest : manifests) {
            if (create(manifest)) {
                created++;
            }
        }
        LOG.infof("seed data: created %d of the %d objects in %s; the rest existed already", created, manifests.size(),
                dir.get());
    }

    private record Manifest(Path file, JsonNode object) {
        int order() {
            return switch (object.path("kind").asText()) {
                case "Namespace" -> 0;
                case "CustomResourceDefinition" -> 1;
                default -> 2;
            };
        }
    }

    private static List<Manifest> read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("watchgate.seed.dir " + dir + " is not a directory");
        }
        List<Path> files;
        try (Stream<Path> listed = Files.list(dir)) {
            files = listed.filter(f -> f.toString().matches(".*\\.(ya?ml|json)$")).sorted().toList();
        }
        List<Manifest> manifests = new ArrayList<>();
        for (Path file : files) {
            try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
                while (documents.hasNext()) {
                    JsonNode object = documents.next();
                    if (object == null || object.isNull() || object.isMissingNode()) {
                        continue; // an empty document, as between two "---"
                    }
                    if (!object.isObject() || object.path("apiVersion").asText().isEmpty()
                            || object.path("kind").asText().isEmpty()) {
                        throw new IllegalStateException("a document is not an object with apiVersion and kind");
                    }
                    manifests.add(new Manifest(file, object));
                }
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException(file + " is no manifest: " + e.getMessage(), e);
            }
        }
        return manifests;
    }

    /** @return whether the object was created (false when it existed) */
    private boolean create(Manifest manifest) {
        JsonNode object = manifest.object();
        String apiVersion = object.path("apiVersion").asText();
        String kind = object.path("kind").asText();
        ResourceType type = types.all().stream()
                .filter(t -> t.apiVersion().equals(apiVersion) && t.kind().equals(kind))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(manifest.file() + ": no served type is " + apiVersion
                        + " " + kind));
        String given = object.at("/metadata/namespace").asText();
        String namespace = !type.namespaced() ? "" : given.isEmpty() ? "default" : given;
        try {
            // one at a time, each waiting until it counts
            return writes.createAtStart(type, namespace, object.deepCopy());
        } catch (ApiException e) {
            if (e.code() == 409) {
                return false;
            }
            throw notCreated(manifest, e);
        } catch (StoreException e) {
            throw notCreated(manifest, e);
        } catch (CompletionException e) {
            throw notCreated(manifest, e.getCause()); // taken, then refused by the log
        }
    }

    private static IllegalStateException notCreated(Manifest manifest, Throwable cause) {
        return new IllegalStateException(manifest.file() + ": " + manifest.object().path("kind").asText() + " "
                + manifest.object().at("/metadata/name").asText() + " could not be created: " + cause.getMessage(),
                cause);
    }
}
