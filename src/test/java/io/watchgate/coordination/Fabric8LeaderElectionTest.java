package io.watchgate.coordination;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * fabric8's leader election, unmodified, over a Lease: of two candidates exactly one leads, the other learns who,
 * and when the leader steps down (releasing the lease, as it does when its work is cancelled) the other takes over.
 */
@QuarkusTest
class Fabric8LeaderElectionTest {

    /**
     * How long a step may take; with the retry period below it takes a fraction of a second. Shorter than the lease's
     * duration: a takeover within it came from the release, not from the lease running out.
     */
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URL url;

    private final List<Candidate> candidates = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopCandidates() {
        candidates.forEach(Candidate::close);
    }

    @Test
    void oneOfTwoCandidatesLeadsAndTheOtherTakesOverWhenItStepsDown() throws Exception {
        String namespace = newNamespace("election");
        Candidate first = new Candidate(namespace, "candidate-a");
        Candidate second = new Candidate(namespace, "candidate-b");
        await("one candidate leads", () -> first.leading() || second.leading());
        Candidate leader = first.leading() ? first : second;
        Candidate follower = leader == first ? second : first;
        await("the other learns who leads", () -> follower.leaders.contains(leader.identity));
        assertFalse(follower.leading(), "only one leads");
        assertEquals(leader.identity, holderOf(namespace));

        leader.stepDown();
        await("the other leads once the leader stepped down", follower::leading);
        assertEquals(follower.identity, holderOf(namespace));
        assertEquals(1, lease(namespace).path("spec").path("leaseTransitions").asInt(), "one change of holder");
    }

    private static JsonNode lease(String namespace) throws Exception {
        return JSON.readTree(given().get("/apis/coordination.k8s.io/v1/namespaces/" + namespace + "/leases/the-lead")
                .then().statusCode(200).extract().asString());
    }

    private static String holderOf(String namespace) throws Exception {
        return lease(namespace).path("spec").path("holderIdentity").asText();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + DEADLINE + ": " + what);
            }
            Thread.sleep(20);
        }
    }

    /** One candidate, as a separate process would be: its own client, its own elector. */
    private final class Candidate {

        final String identity;
        final List<String> leaders = new CopyOnWriteArrayList<>();
        private volatile boolean leading;
        private final KubernetesClient client;
        private final CompletableFuture<?> running;

        Candidate(String namespace, String identity) {
            this.identity = identity;
            this.client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withAutoConfigure(false)
                    .withMasterUrl(url.toString()).withNamespace(namespace).build()).build();
            this.running = client.leaderElector().withConfig(new LeaderElectionConfigBuilder()
                    .withName("the-lead")
                    .withLock(new LeaseLock(namespace, "the-lead", identity))
                    .withLeaseDuration(Duration.ofSeconds(60))
                    .withRenewDeadline(Duration.ofSeconds(45))
                    .withRetryPeriod(Duration.ofMillis(100))
                    .withReleaseOnCancel(true)
                    .withLeaderCallbacks(new LeaderCallbacks(() -> leading = true, () -> leading = false,
                            leaders::add))
                    .build()).build().start();
            candidates.add(this);
        }

        boolean leading() {
            return leading;
        }

        /** The elector's work is cancelled: it stops leading and releases the lease, over its client. */
        void stepDown() {
            running.cancel(true);
        }

        void close() {
            stepDown();
            client.close();
        }
    }
}
