package io.watchgate.managedfields;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What kube-apiserver does for {@code kubectl apply --server-side} on an object {@code kubectl apply} (client-side)
 * managed, so that moving from one to the other neither conflicts with kubectl's own earlier writes nor leaves the
 * {@code last-applied-configuration} annotation stale. Only for the manager {@code kubectl}: any other name opts
 * out, as in Kubernetes.
 */
final class LastApplied {

    static final String MANAGER = "kubectl";
    static final String ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";
    /** Kubernetes' bound on an object's annotations together: a larger configuration is not kept in one. */
    private static final int MAX_BYTES = 256 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private LastApplied() {
    }

    /**
     * The conflicts of {@code conflict} that client-side apply explains: fields the annotation (of the request's
     * version) holds, with the value they still have. When every conflict is such a field, the apply goes ahead as if
     * forced (empty result); else the conflicts outside it stand.
     */
    static Optional<ApplyConflict> remaining(ApplyConflict conflict, FieldManager manager, ObjectNode live,
            String apiVersion) {
        Optional<ObjectNode> lastApplied = annotation(live).filter(applied -> applied.path("apiVersion").asText()
                .equals(apiVersion));
        if (lastApplied.isEmpty()) {
            return Optional.of(conflict);
        }
        FieldSet allowed;
        try {
            allowed = manager.unchangedSince(lastApplied.get(), live);
        } catch (RuntimeException e) {
            return Optional.of(conflict); // an annotation its type cannot read explains nothing
        }
        Map<ManagedFieldsEntry.Key, FieldSet> outside = new LinkedHashMap<>();
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> owners = new LinkedHashMap<>();
        for (ApplyConflict.Conflict each : conflict.conflicts()) {
            if (!allowed.has(each.path())) {
                outside.computeIfAbsent(each.owner().key(), key -> FieldSet.empty()).insert(each.path());
                owners.put(each.owner().key(), each.owner());
            }
        }
        return outside.isEmpty() ? Optional.empty() : Optional.of(new ApplyConflict(outside, owners));
    }

    /**
     * After kubectl's apply: an annotation the object had is rewritten to the configuration just applied (without
     * the annotation), or dropped when that would be too large to keep.
     */
    static void keepCurrent(ObjectNode applied, ObjectNode config) {
        JsonNode annotations = applied.path("metadata").path("annotations");
        if (!annotations.has(ANNOTATION)) {
            return;
        }
        ObjectNode recorded = config.deepCopy();
        JsonNode recordedAnnotations = recorded.path("metadata").path("annotations");
        if (recordedAnnotations instanceof ObjectNode withAnnotation) {
            withAnnotation.remove(ANNOTATION);
            if (withAnnotation.isEmpty()) {
                ((ObjectNode) recorded.get("metadata")).remove("annotations");
            }
        }
        String text = recorded.toString();
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            ((ObjectNode) annotations).remove(ANNOTATION);
        } else {
            ((ObjectNode) annotations).put(ANNOTATION, text);
        }
    }

    private static Optional<ObjectNode> annotation(ObjectNode live) {
        String text = live.path("metadata").path("annotations").path(ANNOTATION).asText("");
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return JSON.readTree(text) instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }
}
