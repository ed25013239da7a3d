package io.watchgate.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.persistence.PackagedApp;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Three packaged gateways in storage mode etcd on one etcd: interchangeable replicas. Writes go to any of them and
 * every watcher on every replica sees the same events in the same order; a client lists on one and watches on
 * another, or resumes on another the watch its replica died under, and misses nothing; with etcd stopped, writes are
 * 503, watches stay, readiness says not ready, and all goes on once etcd is back.
 */
@EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")
@Isolated
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration EVENT = Duration.ofSeconds(15);
    private static EtcdServer etcd;
    private static Path logs;
    private static final List<PackagedApp> replicas = new ArrayList<>();
    private static final List<Integer> managementPorts = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        etcd = EtcdServer.start();
        logs = Files.createTempDirectory("replicas-it-");
        for (int i = 0; i < 3; i++) {
            replicas.add(replica("replica-" + i));
        }
    }

    private static PackagedApp replica(String name) throws Exception {
        int management;
        try (ServerSocket socket = new ServerSocket(0)) {
            management = socket.getLocalPort();
        }
        managementPorts.add(management);
        return PackagedApp.start(logs.resolve("unused-" + name), logs.resolve(name + ".log"),
                "watchgate.storage.mode=etcd", "watchgate.storage.etcd.endpoints=" + etcd.endpoint(),
                "watchgate.storage.etcd.readiness-grace=2s", "watchgate.storage.etcd.request-timeout=3s",
                // the collector's election at a fifth of kube-controller-manager's timings: a takeover in seconds
                "watchgate.garbage-collector.lease-duration=3s", "watchgate.garbage-collector.renew-deadline=2s",
                "watchgate.garbage-collector.retry-period=400ms",
                "quarkus.management.port=" + management);
    }

    @AfterAll
    static void stop() throws Exception {
        for (PackagedApp replica : replicas) {
            replica.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    /**
     * Creates a namespace through replica 0, then reads it through each other replica: a read with no resourceVersion
     * is consistent, so each has it in its cache after. A create through another replica a moment after the namespace's
     * could otherwise find none there and answer 404 (kube-apiserver looks a namespace its cache lacks up live;
     * watchgate does not yet).
     */
    private static void namespace(String name) throws Exception {
        HttpResponse<String> created = replicas.get(0).post("/api/v1/namespaces", "{\"metadata\":{\"name\":\""
                + name + "\"}}");
        assertEquals(201, created.statusCode(), created.body());
        for (PackagedApp replica : replicas.subList(1, replicas.size())) {
            HttpResponse<String> read = replica.get("/api/v1/namespaces/" + name);
            assertEquals(200, read.statusCode(), read.body());
        }
    }

    private static long create(PackagedApp replica, String namespace, String name) throws Exception {
        HttpResponse<String> created = replica.post("/api/v1/namespaces/" + namespace + "/configmaps",
                "{\"metadata\":{\"name\":\"" + name + "\"}}");
        assertEquals(201, created.statusCode(), created.body());
        return Long.parseLong(JSON.readTree(created.body()).at("/metadata/resourceVersion").asText());
    }

    private static long listRevision(PackagedApp replica, String namespace) throws Exception {
        HttpResponse<String> list = replica.get("/api/v1/namespaces/" + namespace + "/configmaps");
        assertEquals(200, list.statusCode(), list.body());
        return Long.parseLong(JSON.readTree(list.body()).at("/metadata/resourceVersion").asText());
    }

    private static WatchLines watch(PackagedApp replica, String namespace, long from) throws Exception {
        return WatchLines.open(replica.uri("/api/v1/namespaces/" + namespace + "/configmaps?watch=true"
                + "&resourceVersion=" + from));
    }

    private static String describe(JsonNode event) {
        return event.path("type").asText() + " " + event.at("/object/metadata/name").asText() + " "
                + event.at("/object/metadata/resourceVersion").asText();
    }

    @Test
    void writesOnEveryReplicaReachWatchersOnEveryReplicaInOneOrder() throws Exception {
        namespace("spread");
        long listed = listRevision(replicas.get(0), "spread"); // listed on one, watched on all
        List<WatchLines> watches = new ArrayList<>();
        for (PackagedApp replica : replicas) {
            watches.add(watch(replica, "spread", listed));
        }
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long revision = create(replicas.get(i % 3), "spread", "cm-" + i);
            written.add("ADDED cm-" + i + " " + revision);
        }
        for (WatchLines watch : watches) {
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < written.size(); i++) {
                seen.add(describe(watch.next(EVENT)));
            }
            assertEquals(written, seen, "each watcher sees every write, in etcd's order, with its resourceVersion");
            watch.close();
        }
    }

    @Test
    void aWatchResumedOnAnotherReplicaAfterItsReplicaDiedMissesNothing() throws Exception {
        namespace("failover");
        PackagedApp doomed = replica("doomed");
        try {
            long from = listRevision(doomed, "failover");
            WatchLines watch = watch(doomed, "failover", from);
            List<String> written = new ArrayList<>();
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                written.add("ADDED cm-" + i + " " + create(replicas.get(i % 3), "failover", "cm-" + i));
            }
            for (int i = 0; i < 5; i++) {
                seen.add(describe(watch.next(EVENT)));
            }
            doomed.kill(); // mid-stream: five events read, more sent or on their way
            for (int i = 10; i < 20; i++) {
                written.add("ADDED cm-" + i + " " + create(replicas.get(i % 3), "failover", "cm-" + i));
            }
            long last = Long.parseLong(seen.get(seen.size() - 1).split(" ")[2]);
            WatchLines resumed = watch(replicas.get(1), "failover", last);
            while (seen.size() < written.size()) {
                seen.add(describe(resumed.next(EVENT)));
            }
            assertEquals(written, seen, "resumed from the last resourceVersion seen: nothing lost or repeated");
            long marker = create(replicas.get(2), "failover", "marker");
            assertEquals("ADDED marker " + marker, describe(resumed.next(EVENT)), "and nothing more came between");
            resumed.close();
        } finally {
            doomed.close();
        }
    }

    @Test
    void aTypeDefinedOnOneReplicaIsServedByTheOthers() throws Exception {
        String crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
        HttpResponse<String> defined = replicas.get(0).post(crds, "{\"apiVersion\":\"apiextensions.k8s.io/v1\","
                + "\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":\"gadgets.replicas.test\"},"
                + "\"spec\":{\"group\":\"replicas.test\",\"scope\":\"Namespaced\",\"names\":{\"plural\":"
                + "\"gadgets\",\"kind\":\"Gadget\"},\"versions\":[{\"name\":\"v1\",\"served\":true,"
                + "\"storage\":true,\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
                + "\"x-kubernetes-preserve-unknown-fields\":true}}}]}}");
        assertEquals(201, defined.statusCode(), defined.body());
        // as a client waits for Established: it reads the definition, here from another replica
        HttpResponse<String> established = replicas.get(1).get(crds + "/gadgets.replicas.test");
        assertEquals(200, established.statusCode(), established.body());
        HttpResponse<String> gadget = replicas.get(1).post("/apis/replicas.test/v1/namespaces/default/gadgets",
                "{\"apiVersion\":\"replicas.test/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"g1\"}}");
        assertEquals(201, gadget.statusCode(), gadget.body());
        assertEquals(200, replicas.get(2).get(crds + "/gadgets.replicas.test").statusCode());
        HttpResponse<String> listed = replicas.get(2).get("/apis/replicas.test/v1/namespaces/default/gadgets");
        assertEquals(200, listed.statusCode(), listed.body());
        assertEquals("g1", JSON.readTree(listed.body()).at("/items/0/metadata/name").asText());
    }

    @Test
    void withEtcdStoppedWritesAre503WatchesStayReadinessFlipsAndAllGoesOnWhenItIsBack() throws Exception {
        namespace("outage");
        PackagedApp replica = replicas.get(2);
        long before = create(replica, "outage", "before");
        WatchLines watch = watch(replicas.get(0), "outage", before);
        etcd.stop();
        try {
            HttpResponse<String> refused = replica.post("/api/v1/namespaces/outage/configmaps",
                    "{\"metadata\":{\"name\":\"during\"}}");
            assertEquals(503, refused.statusCode(), refused.body());
            assertTrue(refused.headers().firstValue("Retry-After").isPresent(), refused.headers().toString());
            assertEquals("ServiceUnavailable", JSON.readTree(refused.body()).path("reason").asText());
            assertEquals(200, replica.get("/api/v1/namespaces/outage/configmaps").statusCode(),
                    "reads go on from the watch cache");
            awaitReadiness(2, 503);
        } finally {
            etcd.restart();
        }
        awaitReadiness(2, 200);
        long after = createEventually(replica, "outage", "after");
        JsonNode next = watch.next(EVENT);
        assertEquals("ADDED after " + after, describe(next),
                "the watch from before the outage stayed open with nothing to say, and goes on");
        watch.close();
    }

    /**
     * One replica collects, and when it dies another takes its lease over and, reading the store as it takes up
     * collecting (as every replica does at its start), collects what no one collected meanwhile. Last, since it
     * kills a replica.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void oneReplicaCollectsGarbageAndAnotherTakesOverWhenItDies() throws Exception {
        namespace("collected");
        HttpResponse<String> ownerCreated = replicas.get(1).post("/api/v1/namespaces/collected/configmaps",
                "{\"metadata\":{\"name\":\"owner\"}}");
        assertEquals(201, ownerCreated.statusCode(), ownerCreated.body());
        String owner = JSON.readTree(ownerCreated.body()).at("/metadata/uid").asText();
        int dependents = 40;
        for (int i = 0; i < dependents; i++) {
            HttpResponse<String> created = replicas.get(i % 3).post("/api/v1/namespaces/collected/configmaps",
                    "{\"metadata\":{\"name\":\"dependent-" + i + "\",\"ownerReferences\":[{\"apiVersion\":\"v1\","
                            + "\"kind\":\"ConfigMap\",\"name\":\"owner\",\"uid\":\"" + owner + "\"}]}}");
            assertEquals(201, created.statusCode(), created.body());
        }
        JsonNode lease = collectorLease(replicas.get(1));
        int leader = holderOf(lease);
        int survivor = (leader + 1) % 3;
        replicas.get(leader).kill();
        collectedByAnother(survivor, dependents, lease);
    }

    private static void collectedByAnother(int survivor, int dependents, JsonNode lease) throws Exception {
        WatchLines watch = watch(replicas.get(survivor), "collected", listRevision(replicas.get(survivor),
                "collected"));
        // deleted while no replica collects: its dependents wait for the next collector
        HttpResponse<String> deleted = replicas.get(survivor).delete("/api/v1/namespaces/collected/configmaps/owner");
        assertEquals(200, deleted.statusCode(), deleted.body());
        Set<String> gone = new HashSet<>();
        while (gone.size() < dependents + 1) {
            JsonNode event = watch.next(Duration.ofSeconds(30));
            assertEquals("DELETED", event.path("type").asText(), describe(event));
            gone.add(event.at("/object/metadata/name").asText());
        }
        HttpResponse<String> left = replicas.get(survivor).get("/api/v1/namespaces/collected/configmaps");
        assertEquals(0, JSON.readTree(left.body()).path("items").size(), left.body());
        JsonNode takenOver = collectorLease(replicas.get(survivor));
        assertFalse(takenOver.at("/spec/holderIdentity").asText().equals(lease.at("/spec/holderIdentity").asText()));
        // one more at least: an election after the etcd outage of another test may have moved it once already
        assertTrue(takenOver.at("/spec/leaseTransitions").asInt() > lease.at("/spec/leaseTransitions").asInt());
        watch.close();
    }

    /** The collector's lease, once a replica holds it, as {@code replica} reads it. */
    private static JsonNode collectorLease(PackagedApp replica) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            HttpResponse<String> lease = replica.get(
                    "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/watchgate-garbage-collector");
            if (lease.statusCode() == 200) {
                return JSON.readTree(lease.body());
            }
            assertEquals(404, lease.statusCode(), lease.body());
            assertFalse(System.nanoTime() > deadline, "no replica took the collector's lease within 30 s");
            Thread.sleep(100); // the first election is at most a retry period away
        }
    }

    /** Which replica holds {@code lease}: the one whose log names the holder's identity (its own, random). */
    private static int holderOf(JsonNode lease) throws Exception {
        String holder = lease.at("/spec/holderIdentity").asText();
        assertFalse(holder.isEmpty(), "no replica holds the collector's lease: " + lease);
        for (int i = 0; i < replicas.size(); i++) {
            if (Files.readString(replicas.get(i).log()).contains(holder + " ")) {
                return i;
            }
        }
        throw new AssertionError("no replica's log names the holder " + holder);
    }

    private static long createEventually(PackagedApp replica, String namespace, String name) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            HttpResponse<String> created = replica.post("/api/v1/namespaces/" + namespace + "/configmaps",
                    "{\"metadata\":{\"name\":\"" + name + "\"}}");
            if (created.statusCode() == 201) {
                return Long.parseLong(JSON.readTree(created.body()).at("/metadata/resourceVersion").asText());
            }
            assertEquals(503, created.statusCode(), created.body());
            assertFalse(System.nanoTime() > deadline, "writes did not come back within 30 s: " + created.body());
            Thread.sleep(100); // retrying as a client told Retry-After would, with a deadline
        }
    }

    private static void awaitReadiness(int replica, int status) throws Exception {
        URI ready = URI.create("http://localhost:" + managementPorts.get(replica) + "/q/health/ready");
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Set<Integer> seen = new HashSet<>();
        while (true) {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(ready).build(),
                    HttpResponse.BodyHandlers.ofString());
            seen.add(answer.statusCode());
            if (answer.statusCode() == status) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("readiness never answered " + status + " (saw " + seen + "): "
                        + answer.body());
            }
            Thread.sleep(100); // polling the probe as the kubelet does, with a deadline
        }
    }
}
