package io.watchgate.patch;

import static io.watchgate.patch.Linearity.assertLinear;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import org.junit.jupiter.api.Test;

/**
 * Each patch engine's cost grows linearly with the object and the patch, for the inputs that used to be quadratic:
 * long keyed lists merged, deleted from and reordered, long sets of primitives, and deep nesting with long names.
 */
class PatchLinearityTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final Patcher patcher = new Patcher();
    private final ResourceType pods = new ResourceTypes().find("", "v1", "pods").orElseThrow();

    @Test
    void aKeyedListMergesInLinearTime() {
        assertLinear("merging n ownerReferences into n others",
                n -> strategic(patch(owners(n, "old")), patch(owners(n, "new"))), PatchLinearityTest::copies, 2_000);
        assertLinear("merging n ownerReferences into themselves",
                n -> strategic(patch(owners(n, "same")), patch(owners(n, "same"))), PatchLinearityTest::copies, 2_000);
        assertLinear("merging n ownerReferences whose uids share one hash code", n -> {
            ObjectNode current = patch(colliding(n, 0));
            return strategic(current, patch(colliding(n, n)));
        }, PatchLinearityTest::copies, 2_000);
    }

    /** {@code n} uids from the {@code from}th on, all of one String hash code ("Aa" and "BB" hash alike). */
    private static ArrayNode colliding(int n, int from) {
        ArrayNode owners = NODES.arrayNode();
        for (int i = from; i < from + n; i++) {
            StringBuilder uid = new StringBuilder();
            for (int bit = 0; bit < 16; bit++) {
                uid.append((i >> bit & 1) == 0 ? "Aa" : "BB");
            }
            owners.addObject().put("uid", uid.toString()).put("name", "o" + i);
        }
        return owners;
    }

    @Test
    void deletionsOrdersAndRetainedKeysAreLinear() {
        assertLinear("deleting n of n ownerReferences", n -> {
            ArrayNode doomed = owners(n, "same");
            doomed.forEach(owner -> ((ObjectNode) owner).put("$patch", "delete"));
            return strategic(patch(owners(n, "same")), patch(doomed));
        }, PatchLinearityTest::copies, 2_000);
        assertLinear("reordering n ownerReferences", n -> {
            ArrayNode order = NODES.arrayNode();
            for (int i = n - 1; i >= 0; i--) {
                order.addObject().put("uid", "same-" + i);
            }
            ObjectNode patch = NODES.objectNode();
            patch.putObject("metadata").set("$setElementOrder/ownerReferences", order);
            ((ObjectNode) patch.get("metadata")).set("ownerReferences", NODES.arrayNode());
            return strategic(patch(owners(n, "same")), patch);
        }, PatchLinearityTest::copies, 2_000);
        assertLinear("deleting n of n finalizers", n -> {
            ObjectNode current = NODES.objectNode();
            ArrayNode finalizers = current.putObject("metadata").putArray("finalizers");
            for (int i = 0; i < n; i++) {
                finalizers.add("f" + i);
            }
            ObjectNode patch = NODES.objectNode();
            patch.putObject("metadata").set("$deleteFromPrimitiveList/finalizers", finalizers.deepCopy());
            ((ObjectNode) patch.get("metadata")).set("finalizers", finalizers.deepCopy());
            return strategic(current, patch);
        }, PatchLinearityTest::copies, 2_000);
    }

    @Test
    void deepNestingWithLongNamesIsLinear() {
        assertLinear("a patch nested n deep", n -> {
            ObjectNode patch = NODES.objectNode();
            ObjectNode level = patch;
            for (int i = 0; i < n; i++) {
                level = level.putObject("a-rather-long-field-name-" + "x".repeat(100));
                level.putArray("list").add(i);
            }
            return strategic(NODES.objectNode(), patch);
        }, 60);
    }

    @Test
    void mergePatchAndJsonPatchAreLinear() {
        assertLinear("a merge patch of n members", n -> {
            ObjectNode patch = NODES.objectNode();
            ObjectNode data = patch.putObject("data");
            for (int i = 0; i < n; i++) {
                data.put("k" + i, i % 2 == 0 ? null : "v");
            }
            ObjectNode current = patch.deepCopy();
            return () -> patcher.apply(pods, PatchType.MERGE_PATCH, current, patch, Long.MAX_VALUE);
        }, 2_000);
        assertLinear("a JSON patch of n operations on members", n -> {
            ArrayNode patch = NODES.arrayNode();
            for (int i = 0; i < n; i++) {
                patch.addObject().put("op", "add").put("path", "/data/k" + i).put("value", "v");
            }
            ObjectNode current = NODES.objectNode();
            current.putObject("data");
            return () -> patcher.apply(pods, PatchType.JSON_PATCH, current, patch, Long.MAX_VALUE);
        }, 1_000);
    }

    /** Linear work on the same amount of data: copying an object and a patch of n ownerReferences. */
    private static Runnable copies(int n) {
        ObjectNode current = patch(owners(n, "old"));
        ObjectNode patch = patch(owners(n, "new"));
        return () -> {
            current.deepCopy();
            patch.deepCopy();
        };
    }

    private Runnable strategic(ObjectNode current, ObjectNode patch) {
        return () -> patcher.apply(pods, PatchType.STRATEGIC_MERGE_PATCH, current, patch, Long.MAX_VALUE);
    }

    private static ObjectNode patch(ArrayNode owners) {
        ObjectNode patch = NODES.objectNode();
        patch.putObject("metadata").set("ownerReferences", owners);
        return patch;
    }

    private static ArrayNode owners(int n, String prefix) {
        ArrayNode owners = NODES.arrayNode();
        for (int i = 0; i < n; i++) {
            owners.addObject().put("uid", prefix + "-" + i).put("name", "o" + i).put("kind", "ConfigMap");
        }
        return owners;
    }
}
