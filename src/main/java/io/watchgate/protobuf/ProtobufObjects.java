package io.watchgate.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Coordination;
import io.kubernetes.client.proto.V1Events;
import io.kubernetes.client.proto.V1Rbac;
import io.watchgate.status.ApiException;
import io.watchgate.types.CoordinationTypes;
import io.watchgate.types.EventTypes;
import io.watchgate.types.WorkloadTypes;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ReviewTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}) of the core v1 and rbac v1 types and of
 * the reviews ({@code kubectl auth whoami} and {@code can-i}), what kubectl's typed commands and client-go speak: the {@code k8s\0} magic, a runtime.Unknown envelope naming the
 * type, and the type's message inside. Objects are kept as JSON; this reads protobuf bodies into that JSON and
 * writes it back out. Messages are handled by descriptor (DynamicMessage), so none of the generated classes'
 * code runs.
 */
@ApplicationScoped
public class ProtobufObjects {

    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    /** A watch stream: length-prefixed WatchEvent messages. */
    public static final String WATCH_MEDIA_TYPE = MEDIA_TYPE + ";stream=watch";

    private static final byte[] MAGIC = {'k', '8', 's', 0};
    /** An object's own fields that its envelope carries, not its message. */
    private static final Set<String> TYPE_FIELDS = Set.of("apiVersion", "kind");
    // from the files' descriptors: loading a generated message class logs a warning about its old gencode
    private static final Descriptor UNKNOWN = Runtime.getDescriptor().findMessageTypeByName("Unknown");
    private static final Descriptor TYPE_META = Runtime.getDescriptor().findMessageTypeByName("TypeMeta");
    private static final Descriptor LIST_META = Meta.getDescriptor().findMessageTypeByName("ListMeta");
    /** The messages of each built-in group version, by apiVersion (core's apart: it has meta's Status too). */
    // built when a group's objects are first met, not at every start: each file's descriptor takes its build
    private static final Map<String, java.util.function.Supplier<FileDescriptor>> GROUP_FILES = Map.of(
            RbacTypes.GROUP + "/v1", V1Rbac::getDescriptor,
            ReviewTypes.AUTHENTICATION + "/v1", V1Authentication::getDescriptor,
            ReviewTypes.AUTHORIZATION + "/v1", V1Authorization::getDescriptor,
            CoordinationTypes.GROUP + "/v1", V1Coordination::getDescriptor,
            WorkloadTypes.APPS + "/v1", V1Apps::getDescriptor,
            WorkloadTypes.BATCH + "/v1", V1Batch::getDescriptor,
            EventTypes.GROUP + "/v1", V1Events::getDescriptor);
    private static final Descriptor STATUS = Meta.getDescriptor().findMessageTypeByName("Status");

    private final ProtoToJson toJson;

    public ProtobufObjects(ObjectMapper mapper) {
        this.toJson = new ProtoToJson(mapper);
    }

    /**
     * Whether objects of {@code type} have a protobuf form: the built-in types (core, rbac, reviews, coordination), as
     * in Kubernetes.
     */
    public boolean serves(ResourceType type) {
        boolean builtIn = type.group().isEmpty() || RbacTypes.isRbac(type) && RbacTypes.ALL.contains(type)
                || ReviewTypes.ALL.contains(type) || CoordinationTypes.ALL.contains(type)
                || WorkloadTypes.ALL.contains(type) || EventTypes.ALL.contains(type);
        return builtIn && descriptor(type.apiVersion(), type.kind()) != null;
    }

    /** Reads a protobuf body of {@code type}; 400 when it is not one. */
    public ObjectNode decode(ResourceType type, byte[] body) {
        if (body.length < MAGIC.length || body[0] != MAGIC[0] || body[1] != MAGIC[1] || body[2] != MAGIC[2]
                || body[3] != MAGIC[3]) {
            throw ApiException.undecodable(type.kind(), type.version(), "provided data does not appear to be a "
                    + "protobuf message, expected prefix [107 56 115 0]");
        }
        try {
            DynamicMessage envelope = DynamicMessage.parseFrom(UNKNOWN,
                    ByteString.copyFrom(body, MAGIC.length, body.length - MAGIC.length));
            Message typeMeta = (Message) envelope.getField(UNKNOWN.findFieldByName("typeMeta"));
            String apiVersion = (String) typeMeta.getField(TYPE_META.findFieldByName("apiVersion"));
            String kind = (String) typeMeta.getField(TYPE_META.findFieldByName("kind"));
            Descriptor descriptor = descriptor(apiVersion, kind);
            if (!apiVersion.equals(type.apiVersion()) || !kind.equals(type.kind()) || descriptor == null) {
                throw ApiException.undecodable(type.kind(), type.version(), "the body is a " + apiVersion + " "
                        + kind + ", not a " + type.apiVersion() + " " + type.kind());
            }
            DynamicMessage object = DynamicMessage.parseFrom(descriptor,
                    (ByteString) envelope.getField(UNKNOWN.findFieldByName("raw")));
            ObjectNode json = (ObjectNode) toJson.toJson(object);
            ObjectNode typed = json.objectNode().put("apiVersion", apiVersion).put("kind", kind);
            typed.setAll(json);
            return typed;
        } catch (InvalidProtocolBufferException e) {
            throw ApiException.undecodable(type.kind(), type.version(), "the protobuf message cannot be read: "
                    + e.getMessage());
        }
    }

    /**
     * Makes a core object what Kubernetes' typed decoding makes of a body: 400 unless every field the type
     * declares holds a value of its type, and the fields it does not declare dropped (fieldValidation has had
     * its say about them already). What passes can always be written as protobuf.
     */
    public void conform(ResourceType type, ObjectNode object) {
        if (serves(type)) {
            Descriptor descriptor = descriptor(type.apiVersion(), type.kind());
            try {
                JsonToProto.check(descriptor, object);
            } catch (JsonToProto.Mismatch e) {
                throw ApiException.undecodable(type.kind(), type.version(), e.getMessage());
            }
            JsonToProto.prune(descriptor, object, TYPE_FIELDS);
        }
    }

    /**
     * An object, a bookmark or a Status in its envelope, the type named by its own {@code apiVersion} and
     * {@code kind}.
     */
    public byte[] encode(JsonNode object) {
        String apiVersion = object.path("apiVersion").asText();
        String kind = object.path("kind").asText();
        return envelope(apiVersion, kind, message(apiVersion, kind, object));
    }

    /** A list of {@code type}'s objects in its envelope: {@code ConfigMapList} and so on. */
    public byte[] encodeList(ResourceType type, JsonNode listMeta, List<? extends JsonNode> items) {
        Descriptor list = descriptor(type.apiVersion(), type.listKind());
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(list)
                .setField(list.findFieldByName("metadata"),
                        JsonToProto.message(LIST_META, listMeta, "metadata"));
        Descriptor item = descriptor(type.apiVersion(), type.kind());
        for (JsonNode object : items) {
            builder.addRepeatedField(list.findFieldByName("items"), messageOf(item, object));
        }
        return envelope(type.apiVersion(), type.listKind(), builder.build());
    }

    private static Message message(String apiVersion, String kind, JsonNode object) {
        Descriptor descriptor = descriptor(apiVersion, kind);
        if (descriptor == null) {
            throw new IllegalArgumentException(apiVersion + " " + kind + " has no protobuf form");
        }
        return messageOf(descriptor, object);
    }

    private static Message messageOf(Descriptor descriptor, JsonNode object) {
        try {
            return JsonToProto.message(descriptor, object, "");
        } catch (JsonToProto.Mismatch e) {
            // conform admits only what converts, so a stored object always does
            throw new IllegalStateException("a stored " + descriptor.getName() + " has no protobuf form: "
                    + e.getMessage(), e);
        }
    }

    /** The k8s\0 magic, then runtime.Unknown{typeMeta, raw, contentEncoding, contentType} as Go writes it. */
    private static byte[] envelope(String apiVersion, String kind, Message object) {
        DynamicMessage unknown = DynamicMessage.newBuilder(UNKNOWN)
                .setField(UNKNOWN.findFieldByName("typeMeta"), DynamicMessage.newBuilder(TYPE_META)
                        .setField(TYPE_META.findFieldByName("apiVersion"), apiVersion)
                        .setField(TYPE_META.findFieldByName("kind"), kind).build())
                .setField(UNKNOWN.findFieldByName("raw"), object.toByteString())
                .setField(UNKNOWN.findFieldByName("contentEncoding"), "")
                .setField(UNKNOWN.findFieldByName("contentType"), "").build();
        ByteArrayOutputStream out = new ByteArrayOutputStream(MAGIC.length + unknown.getSerializedSize());
        out.writeBytes(MAGIC);
        try {
            CodedOutputStream coded = CodedOutputStream.newInstance(out);
            unknown.writeTo(coded);
            coded.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The message of a kind: a built-in group version's, and meta's Status (what errors and ERROR events carry). */
    private static Descriptor descriptor(String apiVersion, String kind) {
        if (apiVersion.equals("v1")) {
            return kind.equals("Status") ? STATUS : V1.getDescriptor().findMessageTypeByName(kind);
        }
        java.util.function.Supplier<FileDescriptor> file = GROUP_FILES.get(apiVersion);
        return file == null ? null : file.get().findMessageTypeByName(kind);
    }
}
