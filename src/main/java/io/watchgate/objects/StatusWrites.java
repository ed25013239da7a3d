package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.types.ResourceType;
import io.watchgate.types.WorkloadTypes;

/**
 * What a write takes of an object whose type has a status subresource, as the type's registry strategies take it:
 * a write of the object keeps the stored status; a write of the status changes only the status (of a built-in type:
 * all but the spec, and a Deployment's labels).
 */
final class StatusWrites {

    private StatusWrites() {
    }

    /** {@code desired} as a write of the object, or with {@code statusOnly} of its status, leaves it. */
    static ObjectNode shaped(ResourceType type, ObjectNode current, ObjectNode desired, boolean statusOnly) {
        return !statusOnly ? withStatus(desired, current.get("status"))
                : WorkloadTypes.ALL.contains(type) ? builtInStatusWrite(type, current, desired)
                : withStatus(current.deepCopy(), desired.get("status"));
    }

    /**
     * What an applied configuration may set through where it is sent, so that its manager owns nothing the write
     * does not take (kube-apiserver's "reset fields"): not the status kept by the subresource; through the
     * subresource, only what {@link #shaped} takes.
     */
    static void restrictApplied(ResourceType type, ObjectNode config, boolean statusOnly) {
        if (!type.subresources().status()) {
            return;
        }
        ObjectNode metadata = (ObjectNode) config.get("metadata");
        if (!statusOnly) {
            config.remove("status");
        } else if (WorkloadTypes.ALL.contains(type)) {
            config.remove("spec");
            if (type.equals(WorkloadTypes.DEPLOYMENTS)) {
                metadata.remove("labels");
            }
        } else {
            config.retain("apiVersion", "kind", "metadata", "status");
            metadata.retain("name", "namespace", "resourceVersion", "uid");
        }
    }

    /**
     * A status write of a built-in type, as its registry strategy takes it: everything sent but the spec, which stays
     * as stored (and a Deployment's labels, which its strategy keeps too). A custom resource's status write takes
     * the status alone.
     */
    private static ObjectNode builtInStatusWrite(ResourceType type, ObjectNode current, ObjectNode desired) {
        ObjectNode written = desired.deepCopy();
        JsonNode spec = current.get("spec");
        if (spec == null) {
            written.remove("spec");
        } else {
            written.set("spec", spec.deepCopy());
        }
        if (type.equals(WorkloadTypes.DEPLOYMENTS)) {
            JsonNode labels = current.path("metadata").get("labels");
            ObjectNode metadata = written.withObject("/metadata");
            if (labels == null) {
                metadata.remove("labels");
            } else {
                metadata.set("labels", labels.deepCopy());
            }
        }
        return written;
    }

    private static ObjectNode withStatus(ObjectNode object, JsonNode status) {
        if (status == null || status.isNull()) {
            object.remove("status");
        } else {
            object.set("status", status.deepCopy());
        }
        return object;
    }
}
