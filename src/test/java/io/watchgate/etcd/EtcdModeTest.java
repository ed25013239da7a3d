package io.watchgate.etcd;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/** In storage mode etcd, what the API writes is in etcd, where kube-apiserver would put it, at etcd's revision. */
@QuarkusTest
@TestProfile(EtcdOn.class)
@EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")
class EtcdModeTest {

    @Inject
    Store store;

    @ConfigProperty(name = "watchgate.storage.etcd.endpoints")
    List<String> endpoints;

    @Test
    void aCreatedObjectIsInEtcdAtItsResourceVersion() throws Exception {
        assertInstanceOf(EtcdStore.class, store);
        String resourceVersion = given().contentType(ContentType.JSON)
                .body("{\"metadata\":{\"name\":\"in-etcd\"},\"data\":{\"k\":\"v\"}}")
                .post("/api/v1/namespaces/default/configmaps").then().statusCode(201)
                .extract().path("metadata.resourceVersion");
        try (Client client = Client.builder().endpoints(endpoints.toArray(String[]::new)).build()) {
            List<KeyValue> kvs = client.getKVClient().get(ByteSequence.from("/registry/configmaps/default/in-etcd",
                    StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS).getKvs();
            assertEquals(1, kvs.size());
            assertEquals(Long.parseLong(resourceVersion), kvs.get(0).getModRevision());
            assertEquals("v", new ObjectMapper().readTree(kvs.get(0).getValue().getBytes()).at("/data/k").asText());
        }
    }
}
