package io.watchgate.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.CompatibilityFlags;
import com.flipkart.zjsonpatch.InvalidJsonPatchException;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.watchgate.metrics.Refusals;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import io.watchgate.validation.JsonShape;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.EnumSet;
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
            PatchType.MERGE_PATCH.mediaType(), PatchType.STRATEGIC_MERGE_PATCH.mediaType(),
            PatchType.APPLY_PATCH.mediaType());

    /**
     * kube-apiserver's bound on the operations of one JSON patch (maxJSONPatchOperations): an array insertion or
     * removal shifts the array, so each operation may cost the size of the document.
     */
    public static final int MAX_JSON_PATCH_OPERATIONS = 10_000;

    private final Refusals refusals;
    private final long maxElementMoves;

    @Inject
    Patcher(Refusals refusals, PatchConfig config) {
        this(refusals, config.maxJsonPatchElementMoves());
    }

    Patcher(Refusals refusals, long maxElementMoves) {
        this.maxElementMoves = maxElementMoves;
        this.refusals = refusals;
    }

    /** A patcher with the default bounds, whose refusals are counted nowhere (tests). */
    public Patcher() {
        this(new Refusals(new SimpleMeterRegistry()), PatchConfig.DEFAULT_MAX_JSON_PATCH_ELEMENT_MOVES);
    }

    /**
     * @param current  the stored object; it is not modified
     * @param maxBytes how large the patched object may grow (estimated serialized size)
     * @return the patched object, which the caller owns
     */
    public ObjectNode apply(ResourceType type, PatchType patchType, ObjectNode current, JsonNode patch,
            long maxBytes) {
        ObjectNode target = current.deepCopy();
        JsonNode result = switch (patchType) {
            case JSON_PATCH -> jsonPatch(target, operations(patch), maxBytes);
            case MERGE_PATCH -> {
                requireObject(patch, patchType);
                yield MergePatch.apply(target, patch);
            }
            case STRATEGIC_MERGE_PATCH -> {
                if (!type.strategicMergePatch()) {
                    throw unsupported(type, PatchType.STRATEGIC_MERGE_PATCH.mediaType());
                }
                requireObject(patch, patchType);
                Map<String, String> keys = new HashMap<>(METADATA_MERGE_KEYS);
                keys.putAll(type.patchMergeKeys());
                yield new StrategicMergePatch(keys).apply(target, (ObjectNode) patch);
            }
            case APPLY_PATCH -> throw new IllegalArgumentException("an apply merges by schema and tracks ownership: "
                    + "objects.ObjectApplies applies it");
        };
        if (!result.isObject()) {
            throw ApiException.badRequest("the patch turned the object into a JSON " + result.getNodeType()
                    .name().toLowerCase() + "; an object is required");
        }
        return (ObjectNode) result;
    }

    private static final EnumSet<CompatibilityFlags> FLAGS = EnumSet.of(CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT);

    /**
     * The patch's operations, copied: zjsonpatch inserts an operation's value itself into the object, where a later
     * operation may change it, and a write that lost a race applies the same patch again.
     */
    private JsonNode operations(JsonNode patch) {
        if (patch.isArray() && patch.size() > MAX_JSON_PATCH_OPERATIONS) {
            refusals.count(Refusals.Reason.JSON_PATCH_OPERATIONS);
            throw new ApiException(413, "RequestEntityTooLarge", "The allowed maximum operations in a JSON patch is "
                    + MAX_JSON_PATCH_OPERATIONS + ", got " + patch.size());
        }
        return patch.deepCopy();
    }

    /**
     * Applies the operations one by one to {@code target} (a copy the caller owns), refusing early a patch whose
     * copies would grow the object past {@code maxBytes}: a short patch can otherwise double a tree many times.
     */
    private JsonNode jsonPatch(ObjectNode target, JsonNode patch, long maxBytes) {
        if (!patch.isArray()) {
            throw ApiException.badRequest("json: cannot unmarshal " + patch.getNodeType().name().toLowerCase()
                    + " into Go value of type jsonpatch.Patch");
        }
        try {
            for (JsonNode operation : patch) {
                requirePointer(operation, "path");
                requirePointer(operation, "from");
            }
            JsonPatch.validate(patch, FLAGS);
            long size = JsonShape.estimatedBytes(target);
            long moves = 0;
            for (JsonNode operation : patch) {
                moves += ElementMoves.of(operation, target);
                if (moves > maxElementMoves) {
                    refusals.count(Refusals.Reason.JSON_PATCH_ELEMENT_MOVES);
                    throw new ApiException(413, "RequestEntityTooLarge", "the JSON patch would shift more than "
                            + maxElementMoves + " array elements (insertions and removals before the end of long "
                            + "arrays); send fewer operations, or replace the array whole");
                }
                if (operation.path("op").asText().equals("copy")) {
                    size += JsonShape.estimatedBytes(target.at(operation.path("from").asText()));
                    if (size > maxBytes) {
                        throw new ApiException(413, "RequestEntityTooLarge", "the patched object would be larger "
                                + "than the limit of " + maxBytes + " bytes");
                    }
                }
                JsonPatch.applyInPlace(JsonNodeFactory.instance.arrayNode().add(operation), target, FLAGS);
            }
            return target;
        } catch (InvalidJsonPatchException e) {
            throw ApiException.badRequest("invalid JSON patch: " + Identity.quoted(e.getMessage()));
        } catch (JsonPatchApplicationException | IllegalStateException | IndexOutOfBoundsException e) {
            throw new ApiException(422, "Invalid", "the JSON patch could not be applied: "
                    + Identity.quoted(e.getMessage()));
        } catch (IllegalArgumentException e) {
            // zjsonpatch's own word for a path that is not a JSON pointer
            throw ApiException.badRequest("invalid JSON patch: " + Identity.quoted(e.getMessage()));
        }
    }

    /** RFC 6901: "" or "/"-separated tokens, in which "~" only escapes as "~0" or "~1". */
    private static void requirePointer(JsonNode operation, String member) {
        JsonNode pointer = operation.get(member);
        if (pointer == null) {
            return;
        }
        String text = pointer.asText();
        boolean valid = text.isEmpty() || text.startsWith("/");
        for (int i = text.indexOf('~'); valid && i >= 0; i = text.indexOf('~', i + 1)) {
            valid = i + 1 < text.length() && (text.charAt(i + 1) == '0' || text.charAt(i + 1) == '1');
        }
        if (!valid) {
            throw ApiException.badRequest("invalid JSON patch: \"" + member + "\" is not a JSON pointer: "
                    + Identity.quoted(text));
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
                : List.of(PatchType.JSON_PATCH.mediaType(), PatchType.MERGE_PATCH.mediaType(),
                        PatchType.APPLY_PATCH.mediaType());
    }

    /** 415 for a patch in {@code contentType}. */
    public static ApiException unsupported(ResourceType type, String contentType) {
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
                + "accepted media types include: " + String.join(", ", acceptedMediaTypes(type)));
    }
}
