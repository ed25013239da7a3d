package io.watchgate.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every served core type survives protobuf → the JSON the store keeps → protobuf unchanged, byte for byte,
 * for random objects that fill every field of the type over the seeds.
 */
class ProtobufRoundTripTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SEEDS = 40;

    private final ProtobufObjects protobuf = new ProtobufObjects(JSON);

    static Stream<ResourceType> servedCoreTypes() {
        ProtobufObjects protobuf = new ProtobufObjects(JSON);
        List<ResourceType> core = new ResourceTypes().all().stream().filter(protobuf::serves).toList();
        assertTrue(core.size() >= 11, "the core and rbac types are served in protobuf: " + core);
        return core.stream();
    }

    @ParameterizedTest
    @MethodSource("servedCoreTypes")
    void decodingToJsonAndEncodingAgainGivesTheSameBytes(ResourceType type) throws Exception {
        Descriptor descriptor = Envelopes.descriptorOf(type);
        for (int seed = 0; seed < SEEDS; seed++) {
            byte[] input = Envelopes.wrap(type.apiVersion(), type.kind(), new CanonicalMessages(seed, 8).of(descriptor));
            ObjectNode json = protobuf.decode(type, input);
            ObjectNode conformed = json.deepCopy();
            protobuf.conform(type, conformed); // what the store accepts from a JSON client too, and keeps whole
            assertEquals(json, conformed, type.kind() + " seed " + seed);
            byte[] output = protobuf.encode(json);
            if (!Arrays.equals(input, output)) {
                assertEquals(readable(input, descriptor), readable(output, descriptor),
                        type.kind() + " seed " + seed + " through " + json);
                assertArrayEquals(input, output, type.kind() + " seed " + seed);
            }
        }
    }

    private static String readable(byte[] envelope, Descriptor descriptor) throws Exception {
        return com.google.protobuf.DynamicMessage.parseFrom(descriptor, Envelopes.unwrap(envelope).getRaw()).toString();
    }

    @Test
    void aListCarriesItsMetadataAndItems() throws Exception {
        ResourceType configMaps = new ResourceTypes().find("", "v1", "configmaps").orElseThrow();
        byte[] list = protobuf.encodeList(configMaps, JSON.readTree(
                "{\"resourceVersion\":\"42\",\"continue\":\"abc\",\"remainingItemCount\":3}"),
                List.of(JSON.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},"
                        + "\"data\":{\"k\":\"v\"}}")));
        Runtime.Unknown unknown = Envelopes.unwrap(list);
        assertEquals("ConfigMapList", unknown.getTypeMeta().getKind());
        V1.ConfigMapList decoded = V1.ConfigMapList.parseFrom(unknown.getRaw());
        assertEquals("42", decoded.getMetadata().getResourceVersion());
        assertEquals("abc", decoded.getMetadata().getContinue());
        assertEquals(3, decoded.getMetadata().getRemainingItemCount());
        assertEquals("v", decoded.getItems(0).getDataOrThrow("k"));
    }

    @Test
    void aStatusIsEncodedAsMetaStatus() throws Exception {
        byte[] status = protobuf.encode(JSON.readTree("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"message\":\"too old\",\"reason\":\"Expired\",\"code\":410}"));
        Runtime.Unknown unknown = Envelopes.unwrap(status);
        Meta.Status decoded = Meta.Status.parseFrom(unknown.getRaw());
        assertEquals("Expired", decoded.getReason());
        assertEquals(410, decoded.getCode());
    }

    /** Kubernetes' typed decoding refuses these; the store must not take them from a JSON client either. */
    @Test
    void valuesOfTheWrongTypeAreRefusedNamingTheField() {
        ResourceTypes types = new ResourceTypes();
        ResourceType services = types.find("", "v1", "services").orElseThrow();
        ResourceType configMaps = types.find("", "v1", "configmaps").orElseThrow();
        ResourceType pods = types.find("", "v1", "pods").orElseThrow();
        assertRefused(services, "{\"spec\":{\"ports\":[{\"port\":\"eighty\"}]}}", "spec.ports[0].port");
        assertRefused(services, "{\"spec\":{\"ports\":[{\"port\":4294967296}]}}", "spec.ports[0].port");
        assertRefused(configMaps, "{\"data\":{\"a\":1}}", "data[a]");
        assertRefused(configMaps, "{\"binaryData\":{\"b\":\"not base64!\"}}", "binaryData[b]");
        assertRefused(configMaps, "{\"metadata\":{\"labels\":[\"x\"]}}", "metadata.labels");
        assertRefused(pods, "{\"spec\":{\"containers\":{\"name\":\"c\"}}}", "spec.containers");
        assertRefused(pods, "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":"
                + "{\"cpu\":\"lots\"}}}]}}", "spec.containers[0].resources.limits[cpu]");
        assertRefused(pods, "{\"metadata\":{\"creationTimestamp\":\"yesterday\"}}", "metadata.creationTimestamp");
        // times RFC 3339 cannot write, also those whose year no calendar date holds
        assertRefused(pods, "{\"metadata\":{\"creationTimestamp\":\"10000-01-01T00:00:00Z\"}}",
                "metadata.creationTimestamp");
        assertRefused(pods, "{\"metadata\":{\"creationTimestamp\":\"+999999999-12-31T23:59:59-18:00\"}}",
                "metadata.creationTimestamp");
        assertRefused(pods, "{\"metadata\":{\"creationTimestamp\":\"-999999999-01-01T00:00:00+18:00\"}}",
                "metadata.creationTimestamp");
        assertRefused(pods, "{\"spec\":{\"containers\":[{\"name\":\"c\",\"ports\":[{\"containerPort\":1.5}]}]}}",
                "spec.containers[0].ports[0].containerPort");
        // and what Go takes, this takes: nulls, numbers for quantities, strings or ints for IntOrString
        protobuf.conform(pods, json("{\"metadata\":{\"creationTimestamp\":null},\"spec\":{\"containers\":"
                + "[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":2}},\"livenessProbe\":{\"httpGet\":"
                + "{\"port\":\"http\"}}}]},\"unknownField\":true}"));
    }

    /** Go's typed decoding keeps only the fields a type has; embedded JSON and map keys are data, not fields. */
    @Test
    void fieldsTheTypeDoesNotHaveAreDropped() {
        ResourceType pods = new ResourceTypes().find("", "v1", "pods").orElseThrow();
        ObjectNode pod = json("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"color\":\"red\","
                + "\"metadata\":{\"name\":\"p\",\"nickname\":\"x\",\"labels\":{\"any-key\":\"v\"},"
                + "\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:anything\":{}}}]},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"colour\":1,\"resources\":{\"limits\":"
                + "{\"cpu\":\"1\"}}}]}}");
        protobuf.conform(pods, pod);
        assertEquals(json("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
                + "\"labels\":{\"any-key\":\"v\"},\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":"
                + "{\"f:anything\":{}}}]},\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
                + "{\"limits\":{\"cpu\":\"1\"}}}]}}"), pod);
    }

    private void assertRefused(ResourceType type, String body, String field) {
        ApiException e = assertThrows(ApiException.class, () -> protobuf.conform(type, json(body)), body);
        assertEquals(400, e.code());
        assertTrue(e.getMessage().contains("field " + field + ":"), e.getMessage());
        assertTrue(e.getMessage().startsWith(type.kind() + " in version \"v1\" cannot be handled as a "), e.getMessage());
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        // the write's check builds no message; building one refuses the same value with the same words
        JsonToProto.Mismatch built = assertThrows(JsonToProto.Mismatch.class,
                () -> JsonToProto.message(Envelopes.descriptorOf(type), json(body), ""), body);
        assertTrue(e.getMessage().endsWith(built.getMessage()), e.getMessage() + " / " + built.getMessage());
    }

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
