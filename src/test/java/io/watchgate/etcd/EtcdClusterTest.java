package io.watchgate.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Commits;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two replicas on a 3-member etcd cluster: one member killed and started again while writes and watches go on.
 * Every acknowledged write reaches both caches, and the two follow the same events in the same order.
 */
class EtcdClusterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static ObjectNode object(ObjectKey key) {
        ObjectNode object = MAPPER.createObjectNode();
        object.putObject("metadata").put("name", key.name()).put("namespace", key.namespace());
        return object;
    }

    /** Writes {@code key}, trying again while the cluster answers 503 or 504 (as a client told so would). */
    private static ChangeEvent write(EtcdStore store, ObjectKey key) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return Commits.commit(store, Mutation.create(key, object(key)));
            } catch (StoreException.Unavailable | StoreException.Uncertain e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no write in 30 s: " + e.getMessage());
                }
                Thread.sleep(50); // a client's back-off, with a deadline
            } catch (StoreException.KeyExists e) {
                return null; // an earlier try that timed out was made after all
            }
        }
    }

    @Test
    void aMemberKilledAndRestartedUnderWritesAndWatchesLosesNothing() throws Exception {
        List<EtcdServer> members = EtcdServer.cluster(3);
        ExecutorService workers = Executors.newFixedThreadPool(2);
        TestEtcdConfig config = new TestEtcdConfig(members.stream().map(EtcdServer::endpoint).toList(), "/registry",
                Duration.ofSeconds(3));
        try (EtcdStore a = EtcdStorage.open(config, MAPPER, 10_000, Long.MAX_VALUE, Clock.systemUTC(),
                MemoryBudget.unbounded(), workers);
                EtcdStore b = EtcdStorage.open(config, MAPPER, 10_000, Long.MAX_VALUE, Clock.systemUTC(),
                        MemoryBudget.unbounded(), workers)) {
            long start = a.currentRevision();
            List<ChangeEvent> acknowledged = new ArrayList<>();
            for (int i = 0; i < 90; i++) {
                if (i == 30) {
                    members.get(0).kill();
                }
                if (i == 60) {
                    members.get(0).restart();
                }
                ChangeEvent written = write(i % 2 == 0 ? a : b, new ObjectKey("configmaps", "demo", "cm-" + i));
                if (written != null) {
                    acknowledged.add(written);
                }
            }
            long last = acknowledged.get(acknowledged.size() - 1).revision();
            a.awaitRevision(last).get(30, TimeUnit.SECONDS);
            b.awaitRevision(last).get(30, TimeUnit.SECONDS);

            List<String> onA = a.eventsAfter(start).stream().map(e -> e.revision() + " " + e.key().name()).toList();
            List<String> onB = b.eventsAfter(start).stream().map(e -> e.revision() + " " + e.key().name()).toList();
            assertEquals(onA, onB, "both replicas followed the cluster through the member's loss, event for event");
            for (ChangeEvent written : acknowledged) {
                assertTrue(onA.contains(written.revision() + " " + written.key().name()), written + " was lost");
            }
            assertEquals(90, a.list(io.watchgate.store.KeyRange.inNamespace("configmaps", "demo"), a.currentRevision(),
                    null, 1000, o -> true, false).items().size(), "every write was made, once");
        } finally {
            workers.shutdownNow();
            members.forEach(EtcdServer::close);
        }
    }
}
