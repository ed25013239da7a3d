package io.watchgate.persistence;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import java.io.IOException;

/**
 * Reads stored objects back as the API read them from their requests ({@code api.Json}): decimals as exact
 * {@code BigDecimal}s with their trailing zeros, integers too large for a long as {@code BigInteger}s. A tree read
 * any other way (decimals as doubles) is not {@code equals} to the one the store held before the restart, so an
 * identical update would write a new revision, and numbers a double cannot hold (1e400) would change.
 */
public final class StoredJson {

    private final ObjectReader reader;

    StoredJson(ObjectMapper mapper) {
        this.reader = exactReader(mapper);
    }

    /** A reader of stored objects, as above: what any store that keeps objects as JSON reads them back with. */
    public static ObjectReader exactReader(ObjectMapper mapper) {
        return mapper.reader()
                .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .without(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);
    }

    /** The stored object {@code json} holds; not JSON, or not an object, is damage at {@code where}. */
    StoredObject stored(ObjectKey key, byte[] json, long revision, String where) {
        try {
            JsonNode tree = reader.readTree(json);
            if (!(tree instanceof ObjectNode object)) {
                throw new IOException("not a JSON object");
            }
            return new StoredObject(key, object, json, revision);
        } catch (IOException | RuntimeException e) {
            throw new StorageException(where + " holds an object that is not JSON (" + key + "): " + e.getMessage(),
                    e);
        }
    }
}
