package io.watchgate.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Go structs embedded inline are one JSON object but a nested protobuf message: every field Kubernetes' OpenAPI
 * definitions give a served type must be found in its message, embedded or not, and survive both directions.
 */
class ProtobufInlineFieldsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ProtobufObjects protobuf = new ProtobufObjects(JSON);

    @Test
    void everyJsonFieldOfEveryServedTypeHasItsPlaceInTheMessages() throws Exception {
        JsonNode definitions;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("openshift-generated.json")) {
            definitions = JSON.readTree(in).get("definitions");
        }
        Deque<Descriptor> todo = new ArrayDeque<>();
        for (ResourceType type : new ResourceTypes().all()) {
            if (protobuf.serves(type)) {
                todo.add(Envelopes.descriptorOf(type));
            }
        }
        Set<String> visited = new HashSet<>();
        List<String> missing = new ArrayList<>();
        int checked = 0;
        while (!todo.isEmpty()) {
            Descriptor message = todo.poll();
            if (!visited.add(message.getFullName())) {
                continue;
            }
            for (FieldDescriptor field : message.getFields()) {
                if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                    FieldDescriptor element = field.isMapField() ? field.getMessageType().findFieldByName("value") : field;
                    if (element.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                        todo.add(element.getMessageType());
                    }
                }
            }
            JsonNode properties = definitions.path(message.getFullName().replaceFirst("^k8s\\.io\\.", "io.k8s."))
                    .path("properties");
            for (var names = properties.fieldNames(); names.hasNext();) {
                String name = names.next();
                checked++;
                if (!name.equals("apiVersion") && !name.equals("kind") && InlineFields.find(message, name) == null) {
                    missing.add(message.getName() + "." + name);
                }
            }
        }
        assertTrue(checked > 500, "the definitions were walked: " + checked);
        assertEquals(List.of(), missing);
    }

    @Test
    void embeddedStructsKeepTheirFieldsThroughConformAndBothEncodings() throws Exception {
        ResourceType pods = new ResourceTypes().find("", "v1", "pods").orElseThrow();
        ObjectNode pod = (ObjectNode) JSON.readTree("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{
                  "volumes":[{"name":"v","configMap":{"name":"cm","defaultMode":420}},
                             {"name":"s","secret":{"secretName":"x"}}],
                  "containers":[{"name":"c","image":"i",
                    "livenessProbe":{"exec":{"command":["true"]},"periodSeconds":5},
                    "readinessProbe":{"httpGet":{"path":"/q/health/ready","port":"http"}},
                    "env":[{"name":"E","valueFrom":{"configMapKeyRef":{"name":"cm","key":"k"}}}],
                    "envFrom":[{"secretRef":{"name":"sec","optional":true}}]}]}}""");
        ObjectNode conformed = pod.deepCopy();
        protobuf.conform(pods, conformed);
        assertEquals(pod, conformed, "nothing of an embedded struct is pruned");
        ObjectNode decoded = protobuf.decode(pods, protobuf.encode(pod));
        assertEquals(pod, decoded);
    }
}
