package io.watchgate.protobuf;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.store.HistoryCompaction;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import io.restassured.RestAssured;
import java.io.DataInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The core types in Kubernetes' protobuf encoding, as client-go speaks it when it is configured for protobuf
 * (and as kubectl's typed commands send it): bodies in, objects, lists and watch streams out.
 */
@QuarkusTest
class ProtobufApiTest {

    @Inject
    Store store;

    @Inject
    HistoryCompaction history;

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    /** client-go's default Accept for a protobuf-configured client. */
    private static final String CLIENT_GO_ACCEPT = PROTOBUF + ", */*";

    private static byte[] configMap(String name, String value) throws Exception {
        return Envelopes.wrap("ConfigMap", V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName(name))
                .putData("k", value).putBinaryData("raw", ByteString.copyFrom(new byte[] {0, (byte) 0xff})).build());
    }

    @Test
    void createGetAndListAnswerInProtobufWhenTheClientPrefersIt() throws Exception {
        String ns = newNamespace("proto");
        byte[] created = given().contentType(PROTOBUF).accept(CLIENT_GO_ACCEPT).body(configMap("a", "1"))
                .post(configMaps(ns)).then().statusCode(201).contentType(PROTOBUF).extract().asByteArray();
        Runtime.Unknown envelope = Envelopes.unwrap(created);
        assertEquals("v1", envelope.getTypeMeta().getApiVersion());
        assertEquals("ConfigMap", envelope.getTypeMeta().getKind());
        V1.ConfigMap object = V1.ConfigMap.parseFrom(envelope.getRaw());
        assertEquals("1", object.getDataOrThrow("k"));
        assertEquals(ByteString.copyFrom(new byte[] {0, (byte) 0xff}), object.getBinaryDataOrThrow("raw"));
        assertEquals(ns, object.getMetadata().getNamespace());
        assertTrue(object.getMetadata().getCreationTimestamp().getSeconds() > 1_700_000_000L, object::toString);
        String uid = object.getMetadata().getUid();
        String revision = object.getMetadata().getResourceVersion();

        byte[] got = given().accept(CLIENT_GO_ACCEPT).get(configMaps(ns) + "/a").then().statusCode(200)
                .contentType(PROTOBUF).extract().asByteArray();
        assertEquals(object, V1.ConfigMap.parseFrom(Envelopes.unwrap(got).getRaw()), "get returns what create did");
        // and the same object in JSON for a JSON client
        given().get(configMaps(ns) + "/a").then().statusCode(200).contentType("application/json")
                .body("metadata.uid", equalTo(uid)).body("binaryData.raw", equalTo("AP8="));

        given().contentType(PROTOBUF).accept(CLIENT_GO_ACCEPT).body(configMap("b", "2")).post(configMaps(ns)).then()
                .statusCode(201);
        byte[] listed = given().accept(CLIENT_GO_ACCEPT).queryParam("limit", 1).get(configMaps(ns)).then()
                .statusCode(200).contentType(PROTOBUF).extract().asByteArray();
        Runtime.Unknown listEnvelope = Envelopes.unwrap(listed);
        assertEquals("ConfigMapList", listEnvelope.getTypeMeta().getKind());
        V1.ConfigMapList page = V1.ConfigMapList.parseFrom(listEnvelope.getRaw());
        assertEquals(1, page.getItemsCount());
        assertEquals("a", page.getItems(0).getMetadata().getName());
        assertTrue(!page.getMetadata().getContinue().isEmpty(), "a continue token for the next page");
        assertEquals(1, page.getMetadata().getRemainingItemCount());
        assertTrue(Long.parseLong(page.getMetadata().getResourceVersion()) > Long.parseLong(revision));

        byte[] deleted = given().accept(CLIENT_GO_ACCEPT).delete(configMaps(ns) + "/b").then().statusCode(200)
                .contentType(PROTOBUF).extract().asByteArray();
        assertEquals("b", V1.ConfigMap.parseFrom(Envelopes.unwrap(deleted).getRaw()).getMetadata().getName());
    }

    @Test
    void customTypesAndTablesStayJson() throws Exception {
        // JSON when offered after protobuf; 406 when protobuf is all the client takes
        given().accept(CLIENT_GO_ACCEPT).get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").then()
                .statusCode(200).contentType("application/json");
        given().accept(PROTOBUF).get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions").then()
                .statusCode(406).body("reason", equalTo("NotAcceptable"));
        given().accept(PROTOBUF).get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=true").then()
                .statusCode(406).body("reason", equalTo("NotAcceptable"));
        String ns = newNamespace("proto-table");
        given().accept("application/json;as=Table;v=v1;g=meta.k8s.io," + PROTOBUF).get(configMaps(ns)).then()
                .statusCode(200).body("kind", equalTo("Table"));
        // q-values rank the offers; q=0 refuses one
        given().accept(PROTOBUF + ";q=0.5, application/json").get(configMaps(ns)).then().statusCode(200)
                .contentType("application/json");
        given().accept(PROTOBUF + ";q=0, application/json;q=0.1").get(configMaps(ns)).then().statusCode(200)
                .contentType("application/json");
    }

    @Test
    void aJsonBodyWithAValueOfTheWrongTypeIs400AndStoresNothing() {
        String ns = newNamespace("proto-typed");
        given().contentType("application/json").body("{\"metadata\":{\"name\":\"svc\"},\"spec\":{\"ports\":"
                + "[{\"port\":\"eighty\"}]}}").post("/api/v1/namespaces/" + ns + "/services").then()
                .statusCode(400).body("reason", equalTo("BadRequest"))
                .body("message", containsString("Service in version \"v1\" cannot be handled as a Service"))
                .body("message", containsString("spec.ports[0].port"));
        given().get("/api/v1/namespaces/" + ns + "/services/svc").then().statusCode(404);
    }

    @Test
    void aWatchStreamsLengthPrefixedWatchEvents() throws Exception {
        String ns = newNamespace("proto-watch");
        given().contentType(PROTOBUF).body(configMap("before", "0")).post(configMaps(ns)).then().statusCode(201);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port
                + configMaps(ns) + "?watch=true&allowWatchBookmarks=true&sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan"))
                .header("Accept", PROTOBUF + ";stream=watch, " + CLIENT_GO_ACCEPT).build();
        HttpResponse<InputStream> response = client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
                .get(10, TimeUnit.SECONDS);
        assertEquals(200, response.statusCode());
        assertEquals(PROTOBUF + ";stream=watch", response.headers().firstValue("Content-Type").orElseThrow());
        try (DataInputStream in = new DataInputStream(response.body())) {
            Meta.WatchEvent initial = next(in);
            assertEquals("ADDED", initial.getType());
            Runtime.Unknown added = Envelopes.unwrap(initial.getObject().getRaw().toByteArray());
            assertEquals("ConfigMap", added.getTypeMeta().getKind());
            assertEquals("before", V1.ConfigMap.parseFrom(added.getRaw()).getMetadata().getName());

            Meta.WatchEvent end = next(in);
            assertEquals("BOOKMARK", end.getType());
            V1.ConfigMap bookmark = V1.ConfigMap.parseFrom(Envelopes.unwrap(end.getObject().getRaw().toByteArray()).getRaw());
            assertEquals("true", bookmark.getMetadata().getAnnotationsOrThrow("k8s.io/initial-events-end"));

            given().contentType("application/json").body("{\"metadata\":{\"name\":\"after\"},\"data\":{\"x\":\"y\"}}")
                    .post(configMaps(ns)).then().statusCode(201);
            Meta.WatchEvent live = next(in);
            while (live.getType().equals("BOOKMARK")) {
                live = next(in);
            }
            assertEquals("ADDED", live.getType());
            V1.ConfigMap after = V1.ConfigMap.parseFrom(Envelopes.unwrap(live.getObject().getRaw().toByteArray()).getRaw());
            assertEquals("y", after.getDataOrThrow("x"));
            assertTrue(Long.parseLong(after.getMetadata().getResourceVersion())
                    > Long.parseLong(bookmark.getMetadata().getResourceVersion()));
        }
    }

    @Test
    void aWatchFromACompactedVersionEndsWithAProtobufStatus() throws Exception {
        String ns = newNamespace("proto-gone");
        long old = store.currentRevision();
        given().contentType(PROTOBUF).body(configMap("a", "1")).post(configMaps(ns)).then().statusCode(201);
        history.compactTo(store.currentRevision(), 1000);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port
                + configMaps(ns) + "?watch=1&resourceVersion=" + old)).header("Accept", PROTOBUF).build();
        HttpResponse<InputStream> response = HttpClient.newHttpClient()
                .sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()).get(10, TimeUnit.SECONDS);
        try (DataInputStream in = new DataInputStream(response.body())) {
            Meta.WatchEvent error = next(in);
            assertEquals("ERROR", error.getType());
            Runtime.Unknown envelope = Envelopes.unwrap(error.getObject().getRaw().toByteArray());
            assertEquals("Status", envelope.getTypeMeta().getKind());
            Meta.Status status = Meta.Status.parseFrom(envelope.getRaw());
            assertEquals(410, status.getCode());
            assertEquals("Expired", status.getReason());
        }
    }

    /** One frame of Kubernetes' protobuf watch stream: a 4-byte big-endian length, then a WatchEvent. */
    private static Meta.WatchEvent next(DataInputStream in) throws Exception {
        int length = in.readInt();
        assertTrue(length > 0 && length < 1 << 20, "a sane frame length: " + length);
        return Meta.WatchEvent.parseFrom(in.readNBytes(length));
    }
}
