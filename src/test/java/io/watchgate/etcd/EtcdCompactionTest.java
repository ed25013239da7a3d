package io.watchgate.etcd;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.Client;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Commits;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * A replica cut off from etcd while etcd compacted what it had yet to read: it reads everything again, and a
 * watch it was serving ends with 410 Expired (the client relists), as do watches from before; lists show etcd's
 * state.
 */
@QuarkusTest
@TestProfile(EtcdOn.class)
@EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")
class EtcdCompactionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    @Inject
    Store store;

    @ConfigProperty(name = "watchgate.storage.etcd.endpoints")
    List<String> endpoints;

    @TestHTTPResource("/")
    URI server;

    @Test
    void aWatchOnAReplicaThatFellBehindEtcdsCompactionEndsWith410AndListsShowEtcdsState() throws Exception {
        String listed = given().get(CONFIGMAPS).then().statusCode(200).extract().path("metadata.resourceVersion");
        try (WatchLines watch = WatchLines.open(server.resolve(CONFIGMAPS + "?watch=true&resourceVersion=" + listed));
                EtcdStore other = EtcdStorage.open(new TestEtcdConfig(endpoints, "/registry", Duration.ofSeconds(5)),
                        JSON, 1000, Long.MAX_VALUE, Clock.systemUTC(), MemoryBudget.unbounded(),
                        ForkJoinPool.commonPool())) {
            EtcdStore replica = (EtcdStore) store;
            replica.feed().pause();
            ObjectKey key = new ObjectKey("configmaps", "default", "written-elsewhere");
            ChangeEvent written = null;
            for (String name : List.of("first-elsewhere", key.name())) { // etcd keeps the revision it compacts at
                written = Commits.commit(other, Mutation.create(new ObjectKey("configmaps", "default", name),
                        JSON.createObjectNode().set("metadata", JSON.createObjectNode().put("name", name)
                                .put("namespace", "default"))));
            }
            try (Client client = Client.builder().endpoints(endpoints.toArray(String[]::new)).build()) {
                client.getKVClient().compact(written.revision()).get(10, TimeUnit.SECONDS);
            }
            replica.feed().resume();

            JsonNode ended = watch.next(Duration.ofSeconds(15));
            assertEquals("ERROR", ended.path("type").asText(), ended.toString());
            assertEquals(410, ended.at("/object/code").asInt(), ended.toString());
            assertEquals("(stream ended)", watch.next(Duration.ofSeconds(5)).path("type").asText());

            given().get(CONFIGMAPS + "/" + key.name()).then().statusCode(200);
            String again = given().queryParam("watch", "true").queryParam("resourceVersion", listed)
                    .queryParam("timeoutSeconds", "2").get(CONFIGMAPS).then().statusCode(200).extract().asString();
            assertTrue(again.contains("\"code\":410"), "a watch from before the gap is told to relist: " + again);
        }
    }
}
