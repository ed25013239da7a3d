package io.watchgate.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.util.Iterator;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * RFC 7386 merge patch against the RFC's own definition, on random documents: a patch made as the difference of
 * two documents turns the first into the second, the RFC's reference function agrees with the engine on any patch,
 * and applying a patch twice changes nothing more.
 */
class MergePatchPropertyTest {

    private static final long SEED = 7386;
    private static final int CASES = 2000;
    private final Patcher patcher = new Patcher();
    private final ResourceType pods = new ResourceTypes().find("", "v1", "pods").orElseThrow();

    @Test
    void theDifferenceOfTwoDocumentsTurnsTheFirstIntoTheSecond() {
        Random random = new Random(SEED);
        RandomJson json = new RandomJson(random);
        for (int i = 0; i < CASES; i++) {
            ObjectNode from = json.object(4, false);
            ObjectNode to = json.object(4, false);
            JsonNode patch = difference(from, to);
            assertEquals(to, apply(from, patch), "seed " + SEED + ", case " + i + ": " + from + " + " + patch);
        }
    }

    @Test
    void agreesWithTheRfcsReferenceFunctionAndIsIdempotent() {
        Random random = new Random(SEED + 1);
        RandomJson json = new RandomJson(random);
        for (int i = 0; i < CASES; i++) {
            ObjectNode target = json.object(4, false);
            ObjectNode patch = json.object(4, true);
            ObjectNode before = target.deepCopy();
            ObjectNode patched = apply(target, patch);
            String replay = "seed " + SEED + 1 + ", case " + i + ": " + target + " + " + patch;
            assertEquals(reference(target.deepCopy(), patch), patched, replay);
            assertEquals(patched, apply(patched, patch), "applied twice: " + replay);
            assertEquals(before, target, "the stored object changed: " + replay);
        }
    }

    private ObjectNode apply(ObjectNode target, JsonNode patch) {
        return patcher.apply(pods, PatchType.MERGE_PATCH, target, patch, Long.MAX_VALUE);
    }

    /** RFC 7386 section 2, as written there. */
    private static JsonNode reference(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : RandomJson.NODES.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> member = it.next();
            if (member.getValue().isNull()) {
                result.remove(member.getKey());
            } else {
                result.set(member.getKey(), reference(result.get(member.getKey()), member.getValue()));
            }
        }
        return result;
    }

    /** The merge patch that turns {@code from} into {@code to} (neither holds null). */
    static JsonNode difference(JsonNode from, JsonNode to) {
        if (!from.isObject() || !to.isObject()) {
            return to;
        }
        ObjectNode patch = RandomJson.NODES.objectNode();
        from.fieldNames().forEachRemaining(name -> {
            if (!to.has(name)) {
                patch.putNull(name);
            }
        });
        to.fields().forEachRemaining(member -> {
            JsonNode old = from.get(member.getKey());
            if (old == null || !old.equals(member.getValue())) {
                patch.set(member.getKey(), old == null ? member.getValue() : difference(old, member.getValue()));
            }
        });
        return patch;
    }
}
