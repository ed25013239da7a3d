package io.watchgate.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * etcd stopped under two replicas: writes are refused with 503 (Unavailable), reads and consistent reads go on from
 * the caches, and once etcd is back the replicas take writes again and their watches resume where they were, with
 * nothing lost and the two replicas agreeing on every event.
 */
class EtcdOutageTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static ObjectNode object(ObjectKey key) {
        ObjectNode object = MAPPER.createObjectNode();
        object.putObject("metadata").put("name", key.name()).put("namespace", key.namespace());
        return object;
    }

    private static void eventually(String what, Duration within, BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " did not happen within " + within);
            }
            Thread.sleep(50); // polling a condition with a deadline: the test waits for it, never past it
        }
    }

    @Test
    void withEtcdStoppedWritesAreRefusedReadsGoOnAndAfterItsReturnNothingIsMissed() throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try (EtcdServer etcd = EtcdServer.start();
                EtcdStore a = EtcdStorage.open(TestEtcdConfig.of(etcd), MAPPER, 1000, Long.MAX_VALUE,
                        Clock.systemUTC(), MemoryBudget.unbounded(), workers);
                EtcdStore b = EtcdStorage.open(TestEtcdConfig.of(etcd), MAPPER, 1000, Long.MAX_VALUE,
                        Clock.systemUTC(), MemoryBudget.unbounded(), workers)) {
            ObjectKey first = new ObjectKey("configmaps", "demo", "before");
            ChangeEvent written = Commits.commit(a, Mutation.create(first, object(first)));
            b.awaitRevision(written.revision()).get(10, TimeUnit.SECONDS);
            long seen = b.currentRevision();

            etcd.stop();
            ObjectKey during = new ObjectKey("configmaps", "demo", "during");
            assertThrows(StoreException.Unavailable.class, () -> Commits.commit(a, Mutation.create(during,
                    object(during))));
            eventually("replica a noticing etcd is gone", Duration.ofSeconds(10),
                    () -> a.health().unreachableFor().isPresent());
            assertThrows(StoreException.Unavailable.class, () -> a.submit(Mutation.create(during, object(during))),
                    "refused at once while etcd does not answer");
            assertNotNull(a.get(first, a.currentRevision()), "reads go on from the cache");
            assertEquals(a.currentRevision(), a.consistentRevision().get(10, TimeUnit.SECONDS),
                    "a read of the most recent state is served from the cache");

            etcd.restart();
            eventually("replica a reaching etcd again", Duration.ofSeconds(30),
                    () -> a.health().unreachableFor().isEmpty());
            ObjectKey after = new ObjectKey("configmaps", "demo", "after");
            ChangeEvent back = Commits.commit(a, Mutation.create(after, object(after)));
            b.awaitRevision(back.revision()).get(30, TimeUnit.SECONDS);

            List<String> onA = a.eventsAfter(seen).stream().map(e -> e.revision() + " " + e.key().name()).toList();
            List<String> onB = b.eventsAfter(seen).stream().map(e -> e.revision() + " " + e.key().name()).toList();
            assertEquals(onA, onB, "both replicas followed etcd through the outage, event for event");
            assertTrue(onB.contains(back.revision() + " after"), onB.toString());
        } finally {
            workers.shutdownNow();
        }
    }
}
