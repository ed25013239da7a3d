package io.watchgate.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/**
 * Random messages of a type, filled through its descriptor so that every field of every nested message gets
 * exercised across a few seeds. They are canonical: what a Kubernetes object has in JSON, with values in the
 * forms JSON keeps (Time in whole seconds, MicroTime in microseconds, non-empty strings, map keys in order),
 * so that decoding to JSON and encoding back must give the same bytes.
 */
final class CanonicalMessages {

    private static final List<String> QUANTITIES = List.of("1", "500m", "2Gi", "1.5", "100M", "3e3", "0");
    private static final List<String> RAW_JSON = List.of("{\"a\":1}", "{\"f:metadata\":{\"f:labels\":{}}}",
            "[1,\"two\",null]");

    private final Random random;
    private final int maxDepth;

    CanonicalMessages(long seed, int maxDepth) {
        this.random = new Random(seed);
        this.maxDepth = maxDepth;
    }

    /** A message with at least one field set. */
    Message of(Descriptor descriptor) {
        Message message = message(descriptor, 0);
        return message != null ? message : of(descriptor);
    }

    /** null when nothing got set: an empty nested message has no JSON form to come back from. */
    private Message message(Descriptor descriptor, int depth) {
        Message special = special(descriptor);
        if (special != null) {
            return special;
        }
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(descriptor);
        boolean any = false;
        for (FieldDescriptor field : descriptor.getFields()) {
            if (random.nextInt(3) == 0) {
                continue;
            }
            if (field.isMapField()) {
                Descriptor entry = field.getMessageType();
                TreeMap<String, Object> values = new TreeMap<>();
                for (int i = random.nextInt(3); i > 0; i--) {
                    Object value = value(entry.findFieldByName("value"), depth + 1);
                    if (value != null) {
                        values.put(word(), value);
                    }
                }
                for (var pair : values.entrySet()) {
                    builder.addRepeatedField(field, DynamicMessage.newBuilder(entry)
                            .setField(entry.findFieldByName("key"), pair.getKey())
                            .setField(entry.findFieldByName("value"), pair.getValue()).build());
                    any = true;
                }
            } else if (field.isRepeated()) {
                for (int i = random.nextInt(3); i > 0; i--) {
                    Object value = value(field, depth + 1);
                    if (value != null) {
                        builder.addRepeatedField(field, value);
                        any = true;
                    }
                }
            } else {
                Object value = value(field, depth + 1);
                if (value != null) {
                    builder.setField(field, value);
                    any = true;
                }
            }
        }
        return any ? builder.build() : null;
    }

    private Object value(FieldDescriptor field, int depth) {
        return switch (field.getJavaType()) {
            case MESSAGE -> depth > maxDepth ? null : message(field.getMessageType(), depth);
            case STRING -> word();
            case BOOLEAN -> random.nextBoolean();
            // the server's own zero generation is left out of JSON; any other number stands for itself
            case INT -> random.nextInt(5) == 0 ? 0 : random.nextInt(1, Integer.MAX_VALUE);
            case LONG -> field.getFullName().endsWith("ObjectMeta.generation") || random.nextInt(5) != 0
                    ? random.nextLong(1, Long.MAX_VALUE) : 0L;
            case DOUBLE -> random.nextInt(1000) / 8.0;
            case FLOAT -> random.nextInt(1000) / 8.0f;
            case BYTE_STRING -> ByteString.copyFrom(bytes());
            case ENUM -> field.getEnumType().getValues().get(random.nextInt(field.getEnumType().getValues().size()));
        };
    }

    private Message special(Descriptor descriptor) {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(descriptor);
        switch (descriptor.getFullName()) {
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Time" -> builder
                    .setField(descriptor.findFieldByName("seconds"), random.nextLong(1, 4_000_000_000L));
            case "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" -> {
                builder.setField(descriptor.findFieldByName("seconds"), random.nextLong(1, 4_000_000_000L));
                int micros = random.nextInt(1_000_000);
                if (micros != 0) {
                    builder.setField(descriptor.findFieldByName("nanos"), micros * 1_000);
                }
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                if (random.nextBoolean()) {
                    builder.setField(descriptor.findFieldByName("type"), 0L)
                            .setField(descriptor.findFieldByName("intVal"), random.nextInt(0, 65536));
                } else {
                    builder.setField(descriptor.findFieldByName("type"), 1L)
                            .setField(descriptor.findFieldByName("strVal"), word());
                }
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> builder.setField(
                    descriptor.findFieldByName("string"), QUANTITIES.get(random.nextInt(QUANTITIES.size())));
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" -> builder.setField(
                    descriptor.findFieldByName("duration"), random.nextLong(-10_000_000_000_000L, 10_000_000_000_000L));
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" ->
                    builder.setField(descriptor.findFieldByNumber(1),
                            ByteString.copyFromUtf8(RAW_JSON.get(random.nextInt(RAW_JSON.size()))));
            default -> {
                return null;
            }
        }
        return builder.build();
    }

    private String word() {
        String[] words = {"web", "kube-system", "app.kubernetes.io/name", "10.0.0.1", "é✓", "a b", "x"};
        return words[random.nextInt(words.length)] + (random.nextBoolean() ? "" : Integer.toString(random.nextInt(99)));
    }

    private byte[] bytes() {
        byte[] bytes = new byte[1 + random.nextInt(8)];
        random.nextBytes(bytes);
        return bytes;
    }
}
