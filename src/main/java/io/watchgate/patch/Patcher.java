package io.watchgate.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.InvalidJsonPatchException;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import io.watchgate.schema.ResourceType;
import io.watchgate.status.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Applies a PATCH body of any supported type to a copy of the current object. */
@ApplicationScoped
public class Patcher {

    /** ObjectMeta's own strategy, shared by every type. */
    private static final Map<String, String> METADATA_MERGE_KEYS = Map.of(
            "metadata.finalizers", StrategicMergePatch.PRIMITIVE_SET,
            "metadata.ownerReferences", "uid");

    public static final List<String> SUPPORTED_MEDIA_TYPES = List.of(PatchType.JSON_PATCH.mediaType(),
            PatchType.MERGE_PATCH.mediaType(), PatchType.STRATEGIC_MERGE_PATCH.mediaType());

    /**
     * @param current the stored object; it is not modified
     * @return the patched object, which the caller owns
     */
    public ObjectNode apply(ResourceType type, PatchType patchType, ObjectNode current, JsonNode patch) {
        ObjectNode target = current.deepCopy();
        JsonNode result = switch (patchType) {
            case JSON_PATCH -> jsonPatch(target, patch);
            case MERGE_PATCH -> {
                requireObject(patch, patchType);
                yield MergePatch.apply(target, patch);
            }
            case STRATEGIC_MERGE_PATCH -> {
                if (!type.strategicMergePatch()) {
                    throw unsupported(type);
                }
                requireObject(patch, patchType);
                Map<String, String> keys = new HashMap<>(METADATA_MERGE_KEYS);
                keys.putAll(type.patchMergeKeys());
                yield new StrategicMergePatch(keys).apply(target, (ObjectNode) patch);
            }
            case APPLY_PATCH -> throw unsupported(type);
        };
        if (!result.isObject()) {
            throw ApiException.badRequest("the patch turned the object into a JSON " + result.getNodeType()
                    .name().toLowerCase() + "; an object is required");
        }
        return (ObjectNode) result;
    }

    private static JsonNode jsonPatch(ObjectNode target, JsonNode patch) {
        if (!patch.isArray()) {
            throw ApiException.badRequest("json: cannot unmarshal " + patch.getNodeType().name().toLowerCase()
                    + " into Go value of type jsonpatch.Patch");
        }
        try {
            return JsonPatch.apply(patch, target);
        } catch (InvalidJsonPatchException e) {
            throw ApiException.badRequest("invalid JSON patch: " + e.getMessage());
        } catch (JsonPatchApplicationException | IllegalStateException e) {
            throw new ApiException(422, "Invalid", "the JSON patch could not be applied: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            // zjsonpatch's own word for a path that is not a JSON pointer ("arr", "/x~2")
            throw ApiException.badRequest("invalid JSON patch: " + e.getMessage());
        }
    }

    private static void requireObject(JsonNode patch, PatchType type) {
        if (!patch.isObject()) {
            throw ApiException.badRequest("a " + type.mediaType() + " body must be a JSON object");
        }
    }

    /** What a PATCH to {@code type} accepts: strategic merge only for built-in types, as Kubernetes does. */
    public static List<String> acceptedMediaTypes(ResourceType type) {
        return type.strategicMergePatch() ? SUPPORTED_MEDIA_TYPES
                : List.of(PatchType.JSON_PATCH.mediaType(), PatchType.MERGE_PATCH.mediaType());
    }

    public static ApiException unsupported(ResourceType type) {
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
                + "accepted media types include: " + String.join(", ", acceptedMediaTypes(type)));
    }
}
