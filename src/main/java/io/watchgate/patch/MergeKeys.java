package io.watchgate.patch;

import java.util.HashMap;
import java.util.Map;

/**
 * A type's declared list strategies as a tree of field names, walked alongside the patch: a merge learns a list's
 * key by one lookup per level instead of building the dotted path of every field it visits, which costs the
 * path's length each time (quadratic in a deeply nested patch with long names).
 */
final class MergeKeys {

    /** Below here nothing is declared: every list is replaced. */
    static final MergeKeys NONE = new MergeKeys();

    private final Map<String, MergeKeys> children = new HashMap<>();
    /** The merge key of the list here, {@link StrategicMergePatch#PRIMITIVE_SET}, or null for none. */
    private String listKey;

    private MergeKeys() {
    }

    /** @param byPath merge keys by dot-separated path from the object's root */
    static MergeKeys of(Map<String, String> byPath) {
        MergeKeys root = new MergeKeys();
        byPath.forEach((path, key) -> {
            MergeKeys node = root;
            for (String name : path.split("\\.")) {
                node = node.children.computeIfAbsent(name, n -> new MergeKeys());
            }
            node.listKey = key;
        });
        return root;
    }

    MergeKeys child(String name) {
        return children.getOrDefault(name, NONE);
    }

    /** The key the list here merges by ("" for a set of primitives), or null when it is replaced. */
    String listKey() {
        return listKey;
    }
}
