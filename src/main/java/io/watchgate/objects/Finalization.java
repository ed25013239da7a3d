package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.types.ResourceType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Graceful deletion: an object with finalizers is only marked deleted, and goes when the last one is removed. What
 * it reads of an object is public: the garbage collector reads the same.
 */
public final class Finalization {

    private Finalization() {
    }

    static boolean hasFinalizers(ObjectNode object) {
        JsonNode finalizers = object.path("metadata").path("finalizers");
        return finalizers.isArray() && !finalizers.isEmpty();
    }

    /** Whether its deletion has begun (a deletionTimestamp): finalizers hold it. */
    public static boolean isTerminating(ObjectNode object) {
        JsonNode timestamp = object.path("metadata").get("deletionTimestamp");
        return timestamp != null && !timestamp.isNull();
    }

    /** Whether its deletion has begun and {@code finalizer} holds it. */
    public static boolean heldBy(ObjectNode object, String finalizer) {
        return isTerminating(object) && hasFinalizer(object, finalizer);
    }

    public static boolean hasFinalizer(ObjectNode object, String finalizer) {
        for (JsonNode name : object.path("metadata").path("finalizers")) {
            if (finalizer.equals(name.asText())) {
                return true;
            }
        }
        return false;
    }

    /** Once an object is being deleted, its finalizers may only go, never be added (422 otherwise). */
    static void checkNoNewFinalizers(ResourceType type, ObjectNode current, ObjectNode updated) {
        if (!isTerminating(current)) {
            return;
        }
        Set<JsonNode> before = new HashSet<>();
        current.path("metadata").path("finalizers").forEach(before::add);
        List<String> added = new ArrayList<>();
        updated.path("metadata").path("finalizers").forEach(f -> {
            if (!before.contains(f)) {
                added.add("\"" + f.asText() + "\"");
            }
        });
        if (!added.isEmpty()) {
            throw ApiException.invalid(type.group(), type.kind(), updated.path("metadata").path("name").asText(""),
                    List.of(Cause.forbidden("metadata.finalizers", "no new finalizers can be added if the object "
                            + "is being deleted, found new finalizers []string{" + String.join(", ", added) + "}")));
        }
    }

    /**
     * The finalizers a deletion leaves on {@code object}: its own, with the garbage collector's one chosen as
     * kube's store chooses it. The request's policy first, else the one the object carries already, else its
     * type's default; Orphan holds it with {@code orphan}, Foreground with {@code foregroundDeletion}, Background
     * with neither. A type the collector ignores gets neither.
     */
    static List<String> afterDeletion(ResourceType type, ObjectNode object, Propagation requested) {
        List<String> kept = new ArrayList<>();
        Propagation carried = null;
        for (JsonNode finalizer : object.path("metadata").path("finalizers")) {
            String name = finalizer.asText();
            if (name.equals(Propagation.ORPHAN_FINALIZER)) {
                carried = carried == null ? Propagation.ORPHAN : carried;
            } else if (name.equals(Propagation.FOREGROUND_FINALIZER)) {
                carried = carried == null ? Propagation.FOREGROUND : carried;
            } else {
                kept.add(name);
            }
        }
        Propagation byDefault = Propagation.defaultFor(type);
        if (byDefault == null) {
            return finalizers(object); // not the collector's: its finalizers stay as they are
        }
        Propagation chosen = requested != null ? requested : carried != null ? carried : byDefault;
        if (chosen == Propagation.ORPHAN) {
            kept.add(Propagation.ORPHAN_FINALIZER);
        } else if (chosen == Propagation.FOREGROUND) {
            kept.add(Propagation.FOREGROUND_FINALIZER);
        }
        return kept;
    }

    static List<String> finalizers(ObjectNode object) {
        List<String> names = new ArrayList<>();
        object.path("metadata").path("finalizers").forEach(f -> names.add(f.asText()));
        return names;
    }

    static void setFinalizers(ObjectNode object, List<String> finalizers) {
        ObjectNode metadata = object.withObject("/metadata");
        if (finalizers.isEmpty()) {
            metadata.remove("finalizers");
        } else {
            metadata.putArray("finalizers").addAll(finalizers.stream()
                    .map(com.fasterxml.jackson.databind.node.TextNode::valueOf).toList());
        }
    }

    static void markDeleted(ObjectNode object, Instant now) {
        ObjectNode metadata = object.withObject("/metadata");
        metadata.put("deletionTimestamp", ServerFields.timestamp(now));
        metadata.put("deletionGracePeriodSeconds", 0);
    }
}
