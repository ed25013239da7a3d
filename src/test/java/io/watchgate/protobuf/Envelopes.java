package io.watchgate.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import io.kubernetes.client.proto.Runtime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/** Kubernetes' protobuf envelope as client-go writes and reads it, built with the generated classes. */
final class Envelopes {

    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private Envelopes() {
    }

    /** The k8s\0 magic, then runtime.Unknown{typeMeta, raw, contentEncoding, contentType} around a core object. */
    static byte[] wrap(String kind, MessageLite object) {
        return wrap("v1", kind, object);
    }

    /** The same around an object of any group's version ({@code rbac.authorization.k8s.io/v1}). */
    static byte[] wrap(String apiVersion, String kind, MessageLite object) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(MAGIC);
        try {
            Runtime.Unknown.newBuilder()
                    .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                    .setRaw(object.toByteString()).setContentEncoding("").setContentType("")
                    .build().writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The message of a served type: a built-in group's. */
    static com.google.protobuf.Descriptors.Descriptor descriptorOf(io.watchgate.types.ResourceType type) {
        com.google.protobuf.Descriptors.FileDescriptor file = switch (type.group()) {
            case "" -> io.kubernetes.client.proto.V1.getDescriptor();
            case "authentication.k8s.io" -> io.kubernetes.client.proto.V1Authentication.getDescriptor();
            case "authorization.k8s.io" -> io.kubernetes.client.proto.V1Authorization.getDescriptor();
            case "coordination.k8s.io" -> io.kubernetes.client.proto.V1Coordination.getDescriptor();
            case "apps" -> io.kubernetes.client.proto.V1Apps.getDescriptor();
            case "batch" -> io.kubernetes.client.proto.V1Batch.getDescriptor();
            case "events.k8s.io" -> io.kubernetes.client.proto.V1Events.getDescriptor();
            case "rbac.authorization.k8s.io" -> io.kubernetes.client.proto.V1Rbac.getDescriptor();
            default -> throw new AssertionError("no protobuf messages for the group of " + type);
        };
        return file.findMessageTypeByName(type.kind());
    }

    /** The envelope of a body, checked to start with the magic. */
    static Runtime.Unknown unwrap(byte[] body) {
        assertArrayEquals(MAGIC, Arrays.copyOf(body, MAGIC.length), "the protobuf magic");
        try {
            return Runtime.Unknown.parseFrom(Arrays.copyOfRange(body, MAGIC.length, body.length));
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError("not a runtime.Unknown", e);
        }
    }
}
