package io.watchgate.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * A protobuf message read into the JSON Kubernetes writes for it: empty fields left out as Go's omitempty does,
 * and Kubernetes' special types (times, IntOrString, Quantity, durations, embedded JSON) in their JSON forms.
 */
final class ProtoToJson {

    /** Fields whose zero Go writes but that the server owns or that mean "unset". */
    private static final Set<String> DROP_ZERO = Set.of("ObjectMeta.generation");

    private final ObjectMapper mapper;

    ProtoToJson(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    JsonNode toJson(Message message) {
        JsonNode special = special(message);
        if (special != null) {
            return special;
        }
        ObjectNode json = mapper.createObjectNode();
        for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
            if (InlineFields.isInline(field)) {
                if (message.hasField(field)) {
                    json.setAll((ObjectNode) toJson((Message) message.getField(field))); // an embedded struct
                }
            } else if (field.isMapField()) {
                List<?> entries = (List<?>) message.getField(field);
                if (entries.isEmpty()) {
                    continue;
                }
                ObjectNode map = json.putObject(field.getName());
                FieldDescriptor key = field.getMessageType().findFieldByName("key");
                FieldDescriptor value = field.getMessageType().findFieldByName("value");
                for (Object entry : entries) {
                    Message pair = (Message) entry;
                    map.set(String.valueOf(pair.getField(key)), value(value, pair.getField(value)));
                }
            } else if (field.isRepeated()) {
                if (message.getRepeatedFieldCount(field) == 0) {
                    continue;
                }
                ArrayNode array = json.putArray(field.getName());
                for (Object element : (List<?>) message.getField(field)) {
                    array.add(value(field, element));
                }
            } else if (message.hasField(field)) {
                JsonNode value = value(field, message.getField(field));
                // Go writes every non-pointer field; its JSON omits the empty ones, and so does this
                boolean zero = value.isNumber() && value.asDouble() == 0;
                if (!isEmpty(value) && !(zero && DROP_ZERO.contains(message.getDescriptorForType().getName() + "."
                        + field.getName()))) {
                    json.set(field.getName(), value);
                }
            }
        }
        return json;
    }

    /**
     * What Go's JSON leaves out of an omitempty field. A false or 0 that the message carries is kept: pointer
     * fields (automountServiceAccountToken: false, runAsUser: 0) mean it, and for the rest it is the default.
     */
    private static boolean isEmpty(JsonNode value) {
        return value.isNull() || (value.isTextual() && value.asText().isEmpty())
                || (value.isContainerNode() && value.isEmpty());
    }

    private JsonNode value(FieldDescriptor field, Object value) {
        return switch (field.getJavaType()) {
            case MESSAGE -> toJson((Message) value);
            case BYTE_STRING -> TextNode.valueOf(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
            case STRING -> TextNode.valueOf((String) value);
            case INT -> IntNode.valueOf((Integer) value);
            case LONG -> LongNode.valueOf((Long) value);
            case BOOLEAN -> BooleanNode.valueOf((Boolean) value);
            case DOUBLE -> DoubleNode.valueOf((Double) value);
            case FLOAT -> DoubleNode.valueOf((Float) value);
            case ENUM -> TextNode.valueOf(value.toString());
        };
    }

    /** Kubernetes' special types, which have a JSON form of their own. */
    private JsonNode special(Message message) {
        return switch (message.getDescriptorForType().getFullName()) {
            case MetaTimes.TIME_MESSAGE -> time(message, MetaTimes.TIME);
            case MetaTimes.MICRO_TIME_MESSAGE -> time(message, MetaTimes.MICRO_TIME);
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> ((Long) field(message, "type")) == 1L
                    ? TextNode.valueOf((String) field(message, "strVal"))
                    : IntNode.valueOf((Integer) field(message, "intVal"));
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> TextNode.valueOf((String) field(message, "string"));
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" ->
                    TextNode.valueOf(GoDuration.format((Long) field(message, "duration")));
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" -> {
                // field 1 is "raw" in RawExtension and "Raw" in FieldsV1
                ByteString raw = (ByteString) message.getField(message.getDescriptorForType().findFieldByNumber(1));
                try {
                    yield raw.isEmpty() ? NullNode.instance : mapper.readTree(raw.toByteArray());
                } catch (IOException e) {
                    throw ApiException.badRequest("an embedded object is not JSON: " + e.getMessage());
                }
            }
            default -> null;
        };
    }

    private static JsonNode time(Message message, DateTimeFormatter format) {
        long seconds = (Long) field(message, "seconds");
        int nanos = (Integer) field(message, "nanos");
        if (seconds == 0 && nanos == 0) {
            return NullNode.instance;
        }
        try {
            return TextNode.valueOf(format.format(Instant.ofEpochSecond(seconds, nanos)));
        } catch (java.time.DateTimeException | ArithmeticException e) {
            throw ApiException.badRequest("a time in the body is out of range: " + seconds + " seconds");
        }
    }

    private static Object field(Message message, String name) {
        return message.getField(message.getDescriptorForType().findFieldByName(name));
    }
}
