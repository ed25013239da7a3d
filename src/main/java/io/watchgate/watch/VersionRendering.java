package io.watchgate.watch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;

/**
 * Objects as the watched version shows them, for watches of a CustomResourceDefinition that serves several and of
 * a type that shares another's storage: Kubernetes converts each object to the watched version (between a
 * definition's versions, conversion strategy None, only apiVersion changes; events.k8s.io/v1 renames fields of the
 * core Event). Objects already at that version go out as stored.
 */
public final class VersionRendering implements ObjectRendering {

    private final ResourceType type;
    private final ObjectMapper mapper;
    private final String key;

    public VersionRendering(ResourceType type, ObjectMapper mapper) {
        this.type = type;
        this.mapper = mapper;
        this.key = "version/" + type.apiVersion();
    }

    @Override
    public String key() {
        return key; // asked per event and watcher: made once
    }

    @Override
    public byte[] render(JsonNode object) {
        return serialized(type.shown((ObjectNode) object));
    }

    private byte[] serialized(ObjectNode shown) {
        try {
            return mapper.writeValueAsBytes(shown);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored object failed to serialize", e);
        }
    }

    @Override
    public byte[] bytesOf(StoredObject object) {
        ObjectNode shown = type.shown(object.tree());
        return shown == object.tree() ? object.json() : serialized(shown);
    }
}
