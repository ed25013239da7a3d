package io.watchgate.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** RFC 7386 JSON Merge Patch: objects merge recursively, null removes a member, anything else replaces. */
final class MergePatch {

    private MergePatch() {
    }

    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : JsonNodeFactory.instance.objectNode();
        for (var it = patch.fields(); it.hasNext();) {
            var member = it.next();
            if (member.getValue().isNull()) {
                result.remove(member.getKey());
            } else {
                result.set(member.getKey(), apply(result.get(member.getKey()), member.getValue()));
            }
        }
        return result;
    }
}
