package io.watchgate.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.Set;

/**
 * Go structs embedded in others: their fields sit in the embedding object in JSON, but protobuf nests them in a
 * field of their own ({@code Volume.volumeSource}, {@code Probe.handler}, ...). The generated messages do not
 * say which fields these are, so they are listed; ProtobufInlineFieldsTest checks the list against Kubernetes'
 * OpenAPI definitions.
 */
final class InlineFields {

    private static final Set<String> FULL_NAMES = Set.of(
            "k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapProjection.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference",
            "k8s.io.api.core.v1.SecretEnvSource.localObjectReference",
            "k8s.io.api.core.v1.SecretKeySelector.localObjectReference",
            "k8s.io.api.core.v1.SecretProjection.localObjectReference",
            "k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon",
            "k8s.io.api.core.v1.Probe.handler",
            "k8s.io.api.core.v1.Volume.volumeSource",
            "k8s.io.api.core.v1.VolumeMountStatus.volumeStatus");

    private InlineFields() {
    }

    static boolean isInline(FieldDescriptor field) {
        return FULL_NAMES.contains(field.getFullName());
    }

    /** The field a JSON member of a {@code descriptor} object is, looking into embedded structs; null if none. */
    static FieldDescriptor find(Descriptor descriptor, String jsonName) {
        FieldDescriptor direct = descriptor.findFieldByName(jsonName);
        if (direct != null && !isInline(direct)) {
            return direct;
        }
        for (FieldDescriptor field : descriptor.getFields()) {
            if (isInline(field)) {
                FieldDescriptor inner = find(field.getMessageType(), jsonName);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }
}
