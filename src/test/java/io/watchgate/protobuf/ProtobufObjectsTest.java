package io.watchgate.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.V1;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import org.junit.jupiter.api.Test;

/** Protobuf bodies, as client-go encodes them, read into the JSON Kubernetes would store. */
class ProtobufObjectsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ProtobufObjects protobuf = new ProtobufObjects(JSON);
    private final ResourceTypes types = new ResourceTypes();

    private ResourceType core(String plural) {
        return types.find("", "v1", plural).orElseThrow();
    }

    /** What kubectl create configmap sends: every non-pointer field written, empty ones too. */
    private static Meta.ObjectMeta.Builder meta(String name) {
        return Meta.ObjectMeta.newBuilder().setName(name).setGenerateName("").setNamespace("").setSelfLink("")
                .setUid("").setResourceVersion("").setGeneration(0).setCreationTimestamp(Meta.Time.newBuilder());
    }

    @Test
    void aConfigMapReadsAsKubernetesWouldWriteItInJson() throws Exception {
        byte[] body = Envelopes.wrap("ConfigMap", V1.ConfigMap.newBuilder().setMetadata(meta("app").putLabels("tier", "web"))
                .putData("a", "1").putBinaryData("b", ByteString.copyFrom(new byte[] {0, 1, 2})).build());
        assertEquals(JSON.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"app\","
                + "\"labels\":{\"tier\":\"web\"}},\"data\":{\"a\":\"1\"},\"binaryData\":{\"b\":\"AAEC\"}}"),
                protobuf.decode(core("configmaps"), body));
    }

    @Test
    void secretsCarryRawBytesWhichJsonCarriesAsBase64() throws Exception {
        byte[] body = Envelopes.wrap("Secret", V1.Secret.newBuilder().setMetadata(meta("s"))
                .putData("user", ByteString.copyFromUtf8("admin")).setType("Opaque").build());
        assertEquals("YWRtaW4=", protobuf.decode(core("secrets"), body).at("/data/user").asText());
    }

    @Test
    void kubernetesSpecialTypesTakeTheirJsonForms() throws Exception {
        V1.Service service = V1.Service.newBuilder().setMetadata(meta("web")).setSpec(V1.ServiceSpec.newBuilder()
                .addPorts(V1.ServicePort.newBuilder().setPort(80).setTargetPort(IntStr.IntOrString.newBuilder()
                        .setType(1).setStrVal("http")))
                .addPorts(V1.ServicePort.newBuilder().setPort(443).setTargetPort(IntStr.IntOrString.newBuilder()
                        .setType(0).setIntVal(8443)))).build();
        var json = protobuf.decode(core("services"), Envelopes.wrap("Service", service));
        assertEquals("http", json.at("/spec/ports/0/targetPort").asText());
        assertEquals(8443, json.at("/spec/ports/1/targetPort").asInt());
        assertTrue(json.at("/spec/ports/1/targetPort").isInt());

        V1.Pod pod = V1.Pod.newBuilder().setMetadata(meta("p").setCreationTimestamp(Meta.Time.newBuilder()
                .setSeconds(1_700_000_000L))).setSpec(V1.PodSpec.newBuilder().addContainers(V1.Container.newBuilder()
                .setName("c").setImage("i").setResources(V1.ResourceRequirements.newBuilder()
                        .putLimits("cpu", Resource.Quantity.newBuilder().setString("500m").build())))).build();
        json = protobuf.decode(core("pods"), Envelopes.wrap("Pod", pod));
        assertEquals("2023-11-14T22:13:20Z", json.at("/metadata/creationTimestamp").asText());
        assertEquals("500m", json.at("/spec/containers/0/resources/limits/cpu").asText());

        V1.Event event = V1.Event.newBuilder().setMetadata(meta("e")).setReason("Started")
                .setEventTime(Meta.MicroTime.newBuilder().setSeconds(1_700_000_000L).setNanos(123_456_000)).build();
        json = protobuf.decode(core("events"), Envelopes.wrap("Event", event));
        assertEquals("2023-11-14T22:13:20.123456Z", json.at("/eventTime").asText());
    }

    @Test
    void aBodyThatIsNotTheTypeOrNotProtobufIs400() throws Exception {
        ApiException wrongKind = assertThrows(ApiException.class, () -> protobuf.decode(core("configmaps"),
                Envelopes.wrap("Secret", V1.Secret.newBuilder().setMetadata(meta("s")).build())));
        assertEquals(400, wrongKind.code());
        ApiException notProtobuf = assertThrows(ApiException.class, () -> protobuf.decode(core("configmaps"),
                "{\"kind\":\"ConfigMap\"}".getBytes()));
        assertTrue(notProtobuf.getMessage().contains("expected prefix [107 56 115 0]"), notProtobuf.getMessage());
        ApiException farFuture = assertThrows(ApiException.class, () -> protobuf.decode(core("configmaps"),
                Envelopes.wrap("ConfigMap", V1.ConfigMap.newBuilder().setMetadata(meta("x").setCreationTimestamp(
                        Meta.Time.newBuilder().setSeconds(1_000_000_000_000_000_000L))).build())));
        assertEquals(400, farFuture.code());
        ApiException truncated = assertThrows(ApiException.class, () -> protobuf.decode(core("configmaps"),
                new byte[] {'k', '8', 's', 0, 0x0a, 0x7f, 1}));
        assertEquals(400, truncated.code());
    }

    @Test
    void anExplicitFalseOnAPointerFieldIsKept() throws Exception {
        byte[] body = Envelopes.wrap("ServiceAccount", V1.ServiceAccount.newBuilder().setMetadata(meta("sa"))
                .setAutomountServiceAccountToken(false).build());
        var json = protobuf.decode(core("serviceaccounts"), body);
        assertTrue(json.has("automountServiceAccountToken"), json::toString);
        assertEquals(false, json.get("automountServiceAccountToken").asBoolean());
        assertTrue(!json.path("metadata").has("generation"), "the server's own zero is left out");
    }

    @Test
    void goDurationsReadAsGoWritesThem() {
        assertEquals("0s", GoDuration.format(0));
        assertEquals("1h2m3s", GoDuration.format(3_723_000_000_000L));
        assertEquals("1m30.5s", GoDuration.format(90_500_000_000L));
        assertEquals("300ms", GoDuration.format(300_000_000L));
        assertEquals("1.5µs", GoDuration.format(1_500L));
        assertEquals("-2s", GoDuration.format(-2_000_000_000L));
    }
}
