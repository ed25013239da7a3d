package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.selector.LabelSelectorObject;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import java.util.List;

/**
 * The scale subresource's view of an object, an autoscaling/v1 Scale, as kube's ScaleREST shows it: the object's
 * name, namespace, uid, resourceVersion and creation time, its {@code spec.replicas}, and its {@code status.replicas}
 * with its selector in the string form; and what a Scale written back may say.
 */
public final class Scales {

    private Scales() {
    }

    /** The Scale of {@code object}. */
    public static ObjectNode of(StoredObject object) {
        JsonNode tree = object.tree();
        JsonNode metadata = tree.path("metadata");
        ObjectNode scale = JsonNodeFactory.instance.objectNode();
        scale.put("kind", "Scale").put("apiVersion", "autoscaling/v1");
        ObjectNode meta = scale.putObject("metadata");
        for (String field : new String[] { "name", "namespace", "uid" }) {
            if (metadata.hasNonNull(field)) {
                meta.set(field, metadata.get(field));
            }
        }
        // a dry run's object has no revision of its own: it shows the one it was computed from
        meta.put("resourceVersion", object.revision() != 0 ? Long.toString(object.revision())
                : metadata.path("resourceVersion").asText(""));
        if (metadata.hasNonNull("creationTimestamp")) {
            meta.set("creationTimestamp", metadata.get("creationTimestamp"));
        }
        ObjectNode spec = scale.putObject("spec");
        long replicas = tree.path("spec").path("replicas").asLong(0);
        if (replicas != 0) {
            spec.put("replicas", replicas); // omitted at 0, as kube's omitempty leaves it
        }
        ObjectNode status = scale.putObject("status");
        status.put("replicas", tree.path("status").path("replicas").asLong(0));
        JsonNode selector = tree.path("spec").path("selector");
        String formatted = selector.isObject() ? LabelSelectorObject.format(selector) : "";
        if (!formatted.isEmpty()) {
            status.put("selector", formatted);
        }
        return scale;
    }

    /**
     * The replicas a Scale written to {@code current} asks for, after kube's checks: a Scale naming this object (400
     * otherwise), its uid if it names one (409), a count that is not negative (422).
     */
    static long replicas(ResourceType type, String name, JsonNode scale, StoredObject current) {
        if (!scale.isObject()) {
            throw ApiException.badRequest("the body of a scale must be an autoscaling/v1 Scale object");
        }
        String named = scale.path("metadata").path("name").asText("");
        if (!named.equals(name)) {
            throw ApiException.badRequest("the name of the object (" + named + ") does not match the name on the URL ("
                    + name + ")");
        }
        String namespace = scale.path("metadata").path("namespace").asText("");
        if (!namespace.isEmpty() && !namespace.equals(current.key().namespace())) {
            throw ApiException.badRequest("the namespace of the provided object does not match the namespace sent "
                    + "on the request");
        }
        JsonNode replicas = scale.path("spec").path("replicas");
        if (!replicas.isMissingNode() && !replicas.isNull()
                && (!replicas.isIntegralNumber() || !replicas.canConvertToInt())) {
            throw ApiException.undecodable("Scale", "autoscaling/v1", "spec.replicas must be an int32");
        }
        if (replicas.asInt(0) < 0) {
            throw ApiException.invalid("autoscaling", "Scale", name, List.of(
                    Cause.invalid("spec.replicas", replicas.asInt(), "must be greater than or equal to 0")));
        }
        String uid = scale.path("metadata").path("uid").asText("");
        String currentUid = current.tree().path("metadata").path("uid").asText("");
        if (!uid.isEmpty() && !uid.equals(currentUid)) {
            throw ApiException.conflict(type.group(), type.resource(), name, "Precondition failed: UID in "
                    + "precondition: " + uid + ", UID in object meta: " + currentUid);
        }
        return replicas.asInt(0);
    }

    /** The resourceVersion a Scale written back names, 0 for none: the object must still be at it. */
    static long expectedRevision(ResourceType type, String name, JsonNode scale) {
        String version = scale.path("metadata").path("resourceVersion").asText("");
        if (version.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(version);
        } catch (NumberFormatException e) {
            throw ApiException.conflict(type.group(), type.resource(), name);
        }
    }
}
