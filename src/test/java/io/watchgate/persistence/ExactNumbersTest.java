package io.watchgate.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.Commits;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Numbers come back from the disk as the API read them (exact decimals, trailing zeros and all, big integers):
 * the recovered tree is equal to the one the store held, so an identical update after a restart changes nothing,
 * as it did before.
 */
class ExactNumbersTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectKey KEY = new ObjectKey("configmaps", "default", "numbers");

    @TempDir
    Path dir;

    /** What api.Json does with a request body. */
    private static ObjectNode asTheApiReadsIt(String json) throws IOException {
        return (ObjectNode) JSON.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .without(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES).readTree(json);
    }

    private MemoryStore open(DurableStorage[] storage) {
        MemoryStore store = new MemoryStore(JSON, 100, Long.MAX_VALUE, Clock.systemUTC());
        storage[0] = DurableStorage.open(new DurableSettings(dir.toString(), false, 1 << 20, 1L << 40), store, JSON);
        return store;
    }

    private StoredObject acrossARestart(boolean throughASnapshot) throws IOException {
        ObjectNode written = asTheApiReadsIt("{\"kind\":\"ConfigMap\",\"numbers\":{\"tenth\":0.1,\"huge\":1e400,"
                + "\"big\":12345678901234567890123,\"negativeZero\":-0.0,\"trailingZero\":1.10,\"small\":-7}}");
        DurableStorage[] storage = new DurableStorage[1];
        MemoryStore store = open(storage);
        StoredObject before = Commits.commit(store, Mutation.create(KEY, written)).object();
        if (throughASnapshot) {
            storage[0].snapshot();
        }
        storage[0].close();

        MemoryStore recovered = open(storage);
        try {
            StoredObject after = recovered.latest(KEY);
            assertEquals(before.tree(), after.tree(), "the tree the store held, node for node");
            assertArrayEquals(before.json(), after.json());
            return after;
        } finally {
            storage[0].close();
        }
    }

    @Test
    void decimalsFromTheLogKeepTheirExactValue() throws Exception {
        StoredObject after = acrossARestart(false);
        assertEquals("{\"tenth\":0.1,\"huge\":1E+400,\"big\":12345678901234567890123,\"negativeZero\":0.0,"
                + "\"trailingZero\":1.10,\"small\":-7}", after.tree().get("numbers").toString());
    }

    @Test
    void decimalsFromASnapshotKeepTheirExactValue() throws Exception {
        acrossARestart(true);
    }
}
