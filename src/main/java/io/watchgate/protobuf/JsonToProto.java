package io.watchgate.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The JSON the store keeps, read into a type's protobuf message the way Go's typed decoding reads it: a value of
 * the wrong type is refused (naming the field), fields the message does not have are left out, and a JSON
 * null leaves its field unset. Map entries are written sorted by key, as Go writes them.
 */
final class JsonToProto {

    /** A value that the type cannot hold, with the path of the field. */
    static final class Mismatch extends RuntimeException {
        Mismatch(String path, String problem) {
            super("field " + (path.isEmpty() ? "(root)" : path) + ": " + problem, null, false, false);
        }
    }

    /** Kubernetes' resource.Quantity syntax: a signed decimal and an optional suffix or exponent. */
    private static final Pattern QUANTITY = Pattern.compile(
            "[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");

    /** Years 0 to 9999 in UTC: what RFC 3339's four digits of year hold. */
    private static final Instant FIRST_WRITABLE = LocalDateTime.of(0, 1, 1, 0, 0).toInstant(ZoneOffset.UTC);
    private static final Instant AFTER_LAST_WRITABLE = LocalDateTime.of(10000, 1, 1, 0, 0).toInstant(ZoneOffset.UTC);

    private JsonToProto() {
    }

    static DynamicMessage message(Descriptor descriptor, JsonNode json, String path) {
        return read(descriptor, json, path, true);
    }

    /**
     * Whether {@link #message} would accept {@code json}, found without building the message: the same checks, and a
     * {@link Mismatch} in the same words (where a map holds several wrong values, this names the first in the
     * object's order, a message the first by key). What every write of a typed object pays for.
     */
    static void check(Descriptor descriptor, JsonNode json) {
        read(descriptor, json, "", false);
    }

    /** The message, or with {@code build} false only the checks and null. */
    private static DynamicMessage read(Descriptor descriptor, JsonNode json, String path, boolean build) {
        if (isSpecial(descriptor)) {
            return special(descriptor, json, path, build);
        }
        if (!json.isObject()) {
            throw mismatch(path, json, "an object (" + descriptor.getName() + ")");
        }
        DynamicMessage.Builder builder = build ? DynamicMessage.newBuilder(descriptor) : null;
        for (FieldDescriptor field : descriptor.getFields()) {
            if (InlineFields.isInline(field)) {
                // an embedded struct: its fields are this object's
                DynamicMessage embedded = read(field.getMessageType(), json, path, build);
                if (build && !embedded.getAllFields().isEmpty()) {
                    builder.setField(field, embedded);
                }
                continue;
            }
            JsonNode value = json.get(field.getName());
            if (value == null || value.isNull()) {
                continue;
            }
            String fieldPath = path.isEmpty() ? field.getName() : path + "." + field.getName();
            if (field.isMapField()) {
                List<Message> entries = mapEntries(field, value, fieldPath, build);
                if (build) {
                    builder.setField(field, entries);
                }
            } else if (field.isRepeated()) {
                if (!value.isArray()) {
                    throw mismatch(fieldPath, value, "an array");
                }
                for (int i = 0; i < value.size(); i++) {
                    Object element = element(field, value.get(i), fieldPath + "[" + i + "]", build);
                    if (build) {
                        builder.addRepeatedField(field, element);
                    }
                }
            } else {
                Object element = element(field, value, fieldPath, build);
                if (build) {
                    builder.setField(field, element);
                }
            }
        }
        return build ? builder.build() : null;
    }

    /**
     * Drops the fields {@code descriptor}'s message does not have, all the way down, as Go's typed decoding does, and
     * writes each time in Kubernetes' form ({@link MetaTimes}):
     * {@code keep} names root fields that live outside the message (apiVersion and kind). Call it on JSON that
     * {@link #message} accepted.
     */
    static void prune(Descriptor descriptor, JsonNode json, Set<String> keep) {
        if (!json.isObject() || isSpecial(descriptor)) {
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> entry = fields.next();
            FieldDescriptor field = InlineFields.find(descriptor, entry.getKey());
            if (field == null) {
                if (!keep.contains(entry.getKey())) {
                    fields.remove();
                }
                continue;
            }
            if (field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            JsonNode value = entry.getValue();
            String type = field.getMessageType().getFullName();
            if (!field.isRepeated() && value.isTextual()
                    && (type.equals(MetaTimes.TIME_MESSAGE) || type.equals(MetaTimes.MICRO_TIME_MESSAGE))) {
                // written as Kubernetes writes it: in UTC, to the second or the microsecond
                Instant instant = OffsetDateTime.parse(value.textValue(), DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                        .toInstant();
                entry.setValue(TextNode.valueOf((type.equals(MetaTimes.TIME_MESSAGE) ? MetaTimes.TIME
                        : MetaTimes.MICRO_TIME).format(instant)));
                continue;
            }
            if (field.isMapField()) {
                FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
                if (valueField.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                    value.forEach(element -> prune(valueField.getMessageType(), element, Set.of()));
                }
            } else if (field.isRepeated()) {
                value.forEach(element -> prune(field.getMessageType(), element, Set.of()));
            } else {
                prune(field.getMessageType(), value, Set.of());
            }
        }
    }

    private static boolean isSpecial(Descriptor descriptor) {
        return switch (descriptor.getFullName()) {
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Time", "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",
                    "k8s.io.apimachinery.pkg.util.intstr.IntOrString", "k8s.io.apimachinery.pkg.api.resource.Quantity",
                    "k8s.io.apimachinery.pkg.apis.meta.v1.Duration", "k8s.io.apimachinery.pkg.runtime.RawExtension",
                    "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" -> true;
            default -> false;
        };
    }

    /** The map's entries sorted by key, or with {@code build} false its values checked and null. */
    private static List<Message> mapEntries(FieldDescriptor field, JsonNode value, String path, boolean build) {
        if (!value.isObject()) {
            throw mismatch(path, value, "an object");
        }
        Descriptor entry = field.getMessageType();
        FieldDescriptor valueField = entry.findFieldByName("value");
        if (!build) {
            for (Iterator<Map.Entry<String, JsonNode>> entries = value.fields(); entries.hasNext(); ) {
                Map.Entry<String, JsonNode> pair = entries.next();
                if (!pair.getValue().isNull()) {
                    element(valueField, pair.getValue(), path + "[" + pair.getKey() + "]", false);
                }
            }
            return null;
        }
        FieldDescriptor keyField = entry.findFieldByName("key");
        List<String> keys = new ArrayList<>(value.size());
        value.fieldNames().forEachRemaining(keys::add);
        keys.sort(null); // String order is Go's byte order for the ASCII keys Kubernetes allows; close enough else
        List<Message> entries = new ArrayList<>(keys.size());
        for (String key : keys) {
            DynamicMessage.Builder pair = DynamicMessage.newBuilder(entry).setField(keyField, key);
            JsonNode element = value.get(key);
            if (!element.isNull()) {
                pair.setField(valueField, element(valueField, element, path + "[" + key + "]", true));
            }
            entries.add(pair.build());
        }
        return entries;
    }

    /**
     * One value of {@code field}: a whole value, or one element of a repeated field; with {@code build} false, a
     * message or a byte string is checked and not made (null).
     */
    private static Object element(FieldDescriptor field, JsonNode value, String path, boolean build) {
        return switch (field.getJavaType()) {
            case MESSAGE -> value.isNull() ? (build ? DynamicMessage.getDefaultInstance(field.getMessageType()) : null)
                    : read(field.getMessageType(), value, path, build);
            case STRING -> {
                if (!value.isTextual()) {
                    throw mismatch(path, value, "a string");
                }
                yield value.textValue();
            }
            case BOOLEAN -> {
                if (!value.isBoolean()) {
                    throw mismatch(path, value, "a boolean");
                }
                yield value.booleanValue();
            }
            case INT -> {
                if (!value.isIntegralNumber() || !value.canConvertToInt()) {
                    throw mismatch(path, value, "an int32");
                }
                yield value.intValue();
            }
            case LONG -> {
                if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                    throw mismatch(path, value, "an int64");
                }
                yield value.longValue();
            }
            case DOUBLE -> number(value, path);
            case FLOAT -> (float) number(value, path);
            case BYTE_STRING -> {
                if (!value.isTextual()) {
                    throw mismatch(path, value, "a base64 string");
                }
                try {
                    byte[] bytes = Base64.getDecoder().decode(value.textValue());
                    yield build ? ByteString.copyFrom(bytes) : null;
                } catch (IllegalArgumentException e) {
                    throw new Mismatch(path, "illegal base64 data: " + e.getMessage());
                }
            }
            case ENUM -> {
                EnumValueDescriptor constant = value.isTextual()
                        ? field.getEnumType().findValueByName(value.textValue()) : null;
                if (constant == null) {
                    throw mismatch(path, value, "one of " + field.getEnumType().getValues());
                }
                yield constant;
            }
        };
    }

    private static double number(JsonNode value, String path) {
        if (!value.isNumber()) {
            throw mismatch(path, value, "a number");
        }
        return value.doubleValue();
    }

    /**
     * One of Kubernetes' special types ({@link #isSpecial}), whose JSON form is not their message's shape; with
     * {@code build} false only checked (null).
     */
    private static DynamicMessage special(Descriptor descriptor, JsonNode json, String path, boolean build) {
        return switch (descriptor.getFullName()) {
            case MetaTimes.TIME_MESSAGE -> time(descriptor, json, path, false, build);
            case MetaTimes.MICRO_TIME_MESSAGE -> time(descriptor, json, path, true, build);
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                boolean integer = json.isIntegralNumber() && json.canConvertToInt();
                if (!integer && !json.isTextual()) {
                    throw mismatch(path, json, "an int32 or a string");
                }
                if (!build) {
                    yield null;
                }
                DynamicMessage.Builder builder = DynamicMessage.newBuilder(descriptor);
                yield integer
                        ? builder.setField(descriptor.findFieldByName("type"), 0L)
                                .setField(descriptor.findFieldByName("intVal"), json.intValue()).build()
                        : builder.setField(descriptor.findFieldByName("type"), 1L)
                                .setField(descriptor.findFieldByName("strVal"), json.textValue()).build();
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
                String text = json.isNumber() ? json.asText() : json.isTextual() ? json.textValue() : null;
                if (text == null || !QUANTITY.matcher(text).matches()) {
                    throw new Mismatch(path, "quantities must match the regular expression "
                            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
                }
                yield !build ? null
                        : DynamicMessage.newBuilder(descriptor).setField(descriptor.findFieldByName("string"), text)
                                .build();
            }
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" -> {
                if (!json.isTextual()) {
                    throw mismatch(path, json, "a duration string");
                }
                try {
                    long duration = GoDuration.parse(json.textValue());
                    yield !build ? null : DynamicMessage.newBuilder(descriptor)
                            .setField(descriptor.findFieldByName("duration"), duration).build();
                } catch (IllegalArgumentException e) {
                    throw new Mismatch(path, e.getMessage());
                }
            }
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" ->
                    // any JSON; field 1 is "raw" in RawExtension and "Raw" in FieldsV1
                    !build ? null : DynamicMessage.newBuilder(descriptor).setField(descriptor.findFieldByNumber(1),
                            ByteString.copyFromUtf8(json.toString())).build();
            default -> throw new IllegalArgumentException(descriptor.getFullName() + " is not a special type");
        };
    }

    private static DynamicMessage time(Descriptor descriptor, JsonNode json, String path, boolean micro,
            boolean build) {
        if (!json.isTextual()) {
            throw mismatch(path, json, "an RFC 3339 time");
        }
        Instant instant;
        try {
            instant = OffsetDateTime.parse(json.textValue(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeException e) {
            throw new Mismatch(path, "parsing time \"" + json.textValue() + "\" as RFC 3339: " + e.getMessage());
        }
        // compared as instants: the year of one far out of range (+999999999-12-31T23:59:59-18:00) is no LocalDate
        if (instant.isBefore(FIRST_WRITABLE) || !instant.isBefore(AFTER_LAST_WRITABLE)) {
            // RFC 3339 has four digits of year, and Go writes no other: such a time could be stored but never read
            throw new Mismatch(path, "parsing time \"" + json.textValue() + "\" as RFC 3339: year outside of range "
                    + "[0,9999]");
        }
        if (!build) {
            return null;
        }
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(descriptor)
                .setField(descriptor.findFieldByName("seconds"), instant.getEpochSecond());
        // Time's JSON has whole seconds and MicroTime's microseconds: finer digits are not part of the value
        int nanos = micro ? instant.getNano() / 1_000 * 1_000 : 0;
        if (nanos != 0) {
            builder.setField(descriptor.findFieldByName("nanos"), nanos);
        }
        return builder.build();
    }

    private static Mismatch mismatch(String path, JsonNode value, String expected) {
        return new Mismatch(path, "cannot unmarshal " + jsonType(value) + " into " + expected);
    }

    private static String jsonType(JsonNode value) {
        return switch (value.getNodeType()) {
            case STRING -> "string";
            case NUMBER -> "number " + value.asText();
            case BOOLEAN -> "bool";
            case ARRAY -> "array";
            case OBJECT -> "object";
            default -> value.getNodeType().name().toLowerCase();
        };
    }

}
