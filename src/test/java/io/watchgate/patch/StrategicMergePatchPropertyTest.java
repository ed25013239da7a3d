package io.watchgate.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Strategic merge patch on random objects and patches against a naive reference: the same rules, written as plainly
 * as possible (dotted paths, linear scans, a copy per step), as the engine's hash indexes must agree with.
 */
class StrategicMergePatchPropertyTest {

    private static final long SEED = 5_813;
    private static final int CASES = 3000;
    /** A keyed list, a keyed list inside its elements, and a set of primitives. */
    private static final Map<String, String> KEYS = Map.of("items", "k", "items.sub", "k", "tags",
            StrategicMergePatch.PRIMITIVE_SET);

    @Test
    void agreesWithTheNaiveReference() {
        Random random = new Random(SEED);
        Documents documents = new Documents(random);
        for (int i = 0; i < CASES; i++) {
            ObjectNode target = documents.target();
            ObjectNode patch = documents.patch();
            String replay = "seed " + SEED + ", case " + i + ": " + target + " + " + patch;
            JsonNode expected = Reference.mergeObject(target.deepCopy(), patch, "");
            assertEquals(expected, new StrategicMergePatch(KEYS).apply(target.deepCopy(), patch), replay);
        }
    }

    /** Objects with keyed lists whose keys come from a small pool (so patches hit, miss and repeat them). */
    private record Documents(Random random) {

        ObjectNode target() {
            ObjectNode target = RandomJson.NODES.objectNode();
            target.set("items", elements(false));
            target.set("tags", primitives());
            target.put("other", random.nextInt(3));
            return target;
        }

        ObjectNode patch() {
            ObjectNode patch = RandomJson.NODES.objectNode();
            if (random.nextInt(4) > 0) {
                patch.set("items", elements(true));
            }
            if (random.nextBoolean()) {
                patch.set("tags", primitives());
            }
            if (random.nextInt(3) == 0) {
                patch.set("$deleteFromPrimitiveList/tags", primitives());
            }
            if (random.nextInt(3) == 0) {
                ArrayNode order = patch.putArray("$setElementOrder/items");
                for (int i = random.nextInt(5); i > 0; i--) {
                    order.addObject().set("k", key());
                }
            }
            if (random.nextInt(3) == 0) {
                patch.set("$setElementOrder/tags", primitives());
            }
            if (random.nextInt(6) == 0) {
                patch.putArray("$retainKeys").add("items").add("tags");
            }
            if (random.nextInt(8) == 0) {
                patch.putNull("other");
            }
            return patch;
        }

        private ArrayNode elements(boolean patch) {
            ArrayNode list = RandomJson.NODES.arrayNode();
            for (int i = random.nextInt(7); i > 0; i--) {
                ObjectNode element = list.addObject();
                element.set("k", key());
                if (random.nextBoolean()) {
                    element.put("v", random.nextInt(3));
                }
                if (patch && random.nextInt(4) == 0) {
                    element.put("$patch", "delete");
                } else if (patch && random.nextInt(30) == 0) {
                    element.put("$patch", "replace");
                } else if (patch && random.nextInt(5) == 0) {
                    element.putNull("v");
                }
                if (random.nextInt(3) == 0) {
                    ArrayNode sub = element.putArray("sub");
                    for (int j = random.nextInt(3); j > 0; j--) {
                        sub.addObject().set("k", key()).toString();
                    }
                }
            }
            return list;
        }

        /** Mostly text, sometimes a number that reads as the same text: they are different keys. */
        private JsonNode key() {
            int k = random.nextInt(5);
            return random.nextInt(6) == 0 ? RandomJson.NODES.numberNode(k) : RandomJson.NODES.textNode("" + k);
        }

        private ArrayNode primitives() {
            ArrayNode list = RandomJson.NODES.arrayNode();
            for (int i = random.nextInt(5); i > 0; i--) {
                list.add(key());
            }
            return list;
        }
    }

    /** The rules, naively. */
    private static final class Reference {

        static JsonNode mergeObject(ObjectNode target, ObjectNode patch, String path) {
            String directive = patch.has("$patch") ? patch.get("$patch").asText() : "merge";
            if (directive.equals("delete")) {
                return null;
            }
            if (directive.equals("replace")) {
                ObjectNode copy = patch.deepCopy();
                copy.remove("$patch");
                return copy;
            }
            ObjectNode result = target == null ? RandomJson.NODES.objectNode() : target;
            List<String> names = new ArrayList<>();
            patch.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode value = patch.get(name);
                String child = path.isEmpty() ? name : path + "." + name;
                if (name.equals("$patch") || name.equals("$retainKeys") || name.startsWith("$setElementOrder/")) {
                    continue;
                }
                if (name.startsWith("$deleteFromPrimitiveList/")) {
                    String list = name.substring("$deleteFromPrimitiveList/".length());
                    if (result.get(list) instanceof ArrayNode array) {
                        ArrayNode kept = RandomJson.NODES.arrayNode();
                        array.forEach(e -> {
                            if (!contains(value, e)) {
                                kept.add(e);
                            }
                        });
                        result.set(list, kept);
                    }
                } else if (value.isNull()) {
                    result.remove(name);
                } else if (value.isObject()) {
                    JsonNode old = result.get(name);
                    set(result, name, mergeObject(old != null && old.isObject() ? (ObjectNode) old : null,
                            (ObjectNode) value, child));
                } else if (value.isArray() && KEYS.containsKey(child)) {
                    JsonNode old = result.get(name);
                    ArrayNode original = old != null && old.isArray() ? (ArrayNode) old : RandomJson.NODES.arrayNode();
                    set(result, name, KEYS.get(child).isEmpty() ? union(original, (ArrayNode) value)
                            : mergeList(original, (ArrayNode) value, KEYS.get(child), child));
                } else {
                    result.set(name, value.deepCopy());
                }
            }
            for (String name : names) {
                if (name.startsWith("$setElementOrder/") && result.get(name.substring(17)) instanceof ArrayNode list) {
                    String key = KEYS.get(path.isEmpty() ? name.substring(17) : path + "." + name.substring(17));
                    order(list, (ArrayNode) patch.get(name), key == null || key.isEmpty() ? null : key);
                }
            }
            if (patch.get("$retainKeys") instanceof ArrayNode retain) {
                Set<String> keep = new HashSet<>();
                retain.forEach(k -> keep.add(k.asText()));
                List<String> present = new ArrayList<>();
                result.fieldNames().forEachRemaining(present::add);
                present.stream().filter(n -> !keep.contains(n)).forEach(result::remove);
            }
            return result;
        }

        static ArrayNode mergeList(ArrayNode original, ArrayNode patch, String key, String path) {
            for (JsonNode element : patch) {
                if (element.path("$patch").asText().equals("replace")) {
                    ArrayNode replacement = RandomJson.NODES.arrayNode();
                    patch.forEach(e -> {
                        if (!e.path("$patch").asText().equals("replace")) {
                            replacement.add(e.deepCopy());
                        }
                    });
                    return replacement;
                }
            }
            ArrayNode result = RandomJson.NODES.arrayNode();
            for (JsonNode element : original) {
                boolean doomed = false;
                for (JsonNode p : patch) {
                    doomed |= p.path("$patch").asText().equals("delete") && p.get(key).equals(element.get(key));
                }
                if (!doomed) {
                    result.add(element);
                }
            }
            for (JsonNode element : patch) {
                if (element.path("$patch").asText().equals("delete")) {
                    continue;
                }
                int at = -1;
                for (int i = result.size() - 1; i >= 0; i--) {
                    if (element.get(key).equals(result.get(i).get(key))) {
                        at = i;
                    }
                }
                if (at < 0) {
                    ObjectNode added = element.deepCopy();
                    added.remove("$patch");
                    result.add(added);
                } else {
                    JsonNode merged = mergeObject((ObjectNode) result.get(at), (ObjectNode) element, path);
                    if (merged == null) {
                        result.remove(at);
                    } else {
                        result.set(at, merged);
                    }
                }
            }
            return result;
        }

        static ArrayNode union(ArrayNode original, ArrayNode patch) {
            for (JsonNode element : patch) {
                if (!contains(original, element)) {
                    original.add(element);
                }
            }
            return original;
        }

        static void order(ArrayNode list, ArrayNode order, String key) {
            List<JsonNode> rest = new ArrayList<>();
            list.forEach(rest::add);
            List<JsonNode> ordered = new ArrayList<>();
            for (JsonNode wanted : order) {
                for (int i = 0; i < rest.size(); i++) {
                    JsonNode element = rest.get(i);
                    boolean matches = key == null ? !element.isContainerNode() && element.equals(wanted)
                            : element.isObject() && wanted.isObject() && element.get(key) != null
                                    && element.get(key).equals(wanted.get(key));
                    if (matches) {
                        ordered.add(rest.remove(i));
                        break;
                    }
                }
            }
            ordered.addAll(rest);
            list.removeAll();
            list.addAll(ordered);
        }

        static boolean contains(JsonNode list, JsonNode value) {
            for (JsonNode element : list) {
                if (element.equals(value)) {
                    return true;
                }
            }
            return false;
        }

        static void set(ObjectNode object, String name, JsonNode value) {
            if (value == null) {
                object.remove(name);
            } else {
                object.set(name, value);
            }
        }
    }
}
