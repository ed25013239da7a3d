package io.watchgate.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.JsonDiff;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * RFC 6902 JSON patch on random documents: the patch between two documents turns the first into the second, the
 * same patch applied again to the same stored object gives the same result (a write that lost a race is computed
 * again), and a patch that fails leaves the stored object as it was.
 */
class JsonPatchPropertyTest {

    private static final long SEED = 6902;
    private static final int CASES = 1000;
    private final Patcher patcher = new Patcher();
    private final ResourceType pods = new ResourceTypes().find("", "v1", "pods").orElseThrow();

    @Test
    void theDiffOfTwoDocumentsTurnsTheFirstIntoTheSecondEveryTime() {
        Random random = new Random(SEED);
        RandomJson json = new RandomJson(random);
        for (int i = 0; i < CASES; i++) {
            ObjectNode from = json.object(4, true);
            ObjectNode to = json.object(4, true);
            JsonNode patch = JsonDiff.asJson(from, to);
            ObjectNode stored = from.deepCopy();
            String replay = "seed " + SEED + ", case " + i + ": " + from + " + " + patch;
            assertEquals(to, apply(stored, patch), replay);
            assertEquals(to, apply(stored, patch), "again, as a retried write: " + replay);
            assertEquals(from, stored, "the stored object changed: " + replay);
        }
    }

    @Test
    void aPatchThatFailsLeavesTheStoredObjectAsItWas() {
        Random random = new Random(SEED + 1);
        RandomJson json = new RandomJson(random);
        for (int i = 0; i < CASES; i++) {
            ObjectNode stored = json.object(4, true);
            ObjectNode before = stored.deepCopy();
            ArrayNode patch = (ArrayNode) JsonDiff.asJson(stored, json.object(4, true));
            patch.addObject().put("op", "test").put("path", "/missing-member").put("value", 1);
            String replay = "seed " + (SEED + 1) + ", case " + i + ": " + stored + " + " + patch;
            assertEquals(422, assertThrows(ApiException.class, () -> apply(stored, patch), replay).code(), replay);
            assertEquals(before, stored, "the stored object changed: " + replay);
        }
    }

    private ObjectNode apply(ObjectNode target, JsonNode patch) {
        return patcher.apply(pods, PatchType.JSON_PATCH, target, patch, Long.MAX_VALUE);
    }
}
