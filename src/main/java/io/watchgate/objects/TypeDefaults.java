package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.crd.CrdSpec;
import io.watchgate.status.ApiException;
import io.watchgate.types.ApiExtensionsTypes;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * What kube-apiserver fills in or rewrites for particular core types before it stores them. Every other
 * field is stored exactly as the client sent it.
 */
final class TypeDefaults {

    private TypeDefaults() {
    }

    /**
     * On create: a namespace starts Active; a Secret's stringData folds into data, and its type defaults; a workload
     * gets its kind's defaults and an empty status.
     */
    static void onCreate(ResourceType type, ObjectNode object, Instant now) {
        if (isCore(type, "Namespace")) {
            objectField(type, object, "status").put("phase", "Active");
        }
        if (ApiExtensionsTypes.isCustomResourceDefinitions(type)) {
            // accepted and served at once: there is no controller to wait for
            object.set("status", CrdSpec.parse(object).acceptedStatus(now));
        }
        onWrite(type, object);
        if (WorkloadDefaults.applies(type)) {
            WorkloadDefaults.onCreate(type, object);
        }
    }

    /** On create, once the object has its name (a generated one, on each attempt): what is made of the name. */
    static void onNamed(ResourceType type, ObjectNode object) {
        if (WorkloadDefaults.applies(type)) {
            WorkloadDefaults.onNamed(type, object);
        }
    }

    /** On update and patch: a namespace's status stays the server's (it carries the lifecycle phase). */
    static void onUpdate(ResourceType type, ObjectNode current, ObjectNode updated, Instant now) {
        if (ApiExtensionsTypes.isCustomResourceDefinitions(type)) {
            CrdSpec after = CrdSpec.parse(updated);
            after.checkChangeFrom(CrdSpec.read(current));
            updated.set("status", after.statusAfterUpdate(current.path("status"), now));
        }
        if (isCore(type, "Namespace")) {
            JsonNode status = current.get("status");
            if (status == null) {
                updated.remove("status");
            } else {
                updated.set("status", status.deepCopy());
            }
        }
        onWrite(type, updated);
        if (WorkloadDefaults.applies(type)) {
            WorkloadDefaults.onUpdate(type, current, updated);
        }
    }

    private static void onWrite(ResourceType type, ObjectNode object) {
        if (RbacTypes.isRbac(type) && RbacTypes.ALL.contains(type)) {
            RbacDefaults.apply(type, object);
        }
        if (WorkloadDefaults.applies(type)) {
            WorkloadDefaults.onWrite(type, object);
        }
        if (!isCore(type, "Secret")) {
            return;
        }
        JsonNode stringData = object.remove("stringData");
        if (stringData != null && !stringData.isNull()) {
            if (!stringData.isObject()) {
                throw ApiException.undecodable("Secret", "v1", "stringData must be a map of strings");
            }
            ObjectNode data = objectField(type, object, "data");
            for (var it = stringData.fields(); it.hasNext();) {
                var entry = it.next();
                if (!entry.getValue().isTextual()) {
                    throw ApiException.undecodable("Secret", "v1",
                            "stringData." + entry.getKey() + " must be a string");
                }
                data.put(entry.getKey(), Base64.getEncoder().encodeToString(
                        entry.getValue().textValue().getBytes(StandardCharsets.UTF_8)));
            }
        }
        if (!object.path("type").isTextual() || object.path("type").textValue().isEmpty()) {
            object.put("type", "Opaque");
        }
    }

    /** The member {@code field} as an object, created when absent or null; 400 when it is something else. */
    private static ObjectNode objectField(ResourceType type, ObjectNode object, String field) {
        JsonNode node = object.get(field);
        if (node != null && !node.isNull() && !node.isObject()) {
            throw ApiException.undecodable(type.kind(), type.version(), field + " must be a JSON object");
        }
        return object.withObject("/" + field);
    }

    private static boolean isCore(ResourceType type, String kind) {
        return type.group().isEmpty() && type.kind().equals(kind);
    }
}
