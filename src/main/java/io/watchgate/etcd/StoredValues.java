package io.watchgate.etcd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.persistence.StoredJson;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import java.io.IOException;

/**
 * Objects as etcd values: their JSON without a resourceVersion, which is the key's mod revision, as
 * kube-apiserver stores them. Read back, an object gets its revision stamped in and is serialized once, for every
 * reader and watcher of this replica to share.
 */
final class StoredValues {

    private final ObjectMapper mapper;
    private final ObjectReader reader;

    StoredValues(ObjectMapper mapper) {
        this.mapper = mapper;
        this.reader = StoredJson.exactReader(mapper);
    }

    /** {@code object}'s value: its JSON with no resourceVersion ({@code object} itself is not changed). */
    byte[] encode(ObjectNode object) {
        ObjectNode copy = mapper.createObjectNode();
        copy.setAll(object);
        JsonNode metadata = object.get("metadata");
        if (metadata instanceof ObjectNode fields && fields.has("resourceVersion")) {
            ObjectNode without = mapper.createObjectNode();
            without.setAll(fields);
            without.remove("resourceVersion");
            copy.set("metadata", without);
        }
        return serialize(copy);
    }

    /**
     * The object a value holds, at {@code revision}.
     *
     * @throws IllegalArgumentException when the value is not a JSON object
     */
    StoredObject decode(ObjectKey key, byte[] value, long revision) {
        JsonNode tree;
        try {
            tree = reader.readTree(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage());
        }
        if (!(tree instanceof ObjectNode object) || object.has("metadata") && !object.get("metadata").isObject()) {
            throw new IllegalArgumentException("not a JSON object with metadata");
        }
        return at(key, object, revision);
    }

    /** {@code object} (taken over) stamped with {@code revision}. */
    StoredObject at(ObjectKey key, ObjectNode object, long revision) {
        object.withObject("/metadata").put("resourceVersion", Long.toString(revision));
        return new StoredObject(key, object, serialize(object), revision);
    }

    private byte[] serialize(ObjectNode object) {
        try {
            return mapper.writeValueAsBytes(object);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }
}
