package io.watchgate.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RevisionWaitersTest {

    private final ObjectMapper mapper = new ObjectMapper();
    private final MemoryStore store = new MemoryStore(mapper, 100_000, Long.MAX_VALUE, Clock.systemUTC());

    private ObjectNode object(String name) {
        ObjectNode node = mapper.createObjectNode();
        node.putObject("metadata").put("name", name);
        return node;
    }

    private void create(String name) {
        Commits.commit(store, Mutation.create(new ObjectKey("configmaps", "ns", name), object(name)));
    }

    @Test
    void aRevisionReachedAlreadyIsReachedAtOnce() {
        create("a");
        CompletableFuture<Long> reached = store.awaitRevision(1);
        assertTrue(reached.isDone());
        assertEquals(1L, reached.join());
        assertEquals(0, store.waiting());
    }

    @Test
    void aCommitReleasesTheWaitsForItsRevisionAndOlderOnly() {
        CompletableFuture<Long> first = store.awaitRevision(1);
        CompletableFuture<Long> second = store.awaitRevision(2);
        create("a");
        assertEquals(1L, first.join());
        assertFalse(second.isDone());
        assertEquals(1, store.waiting(), "a released wait is forgotten");
        create("b");
        assertEquals(2L, second.join());
        assertEquals(0, store.waiting());
    }

    /**
     * The race a wait must survive: the commit that reaches its revision publishes it after the wait looked and
     * looks for waiters before this one registered. The wait looks again once registered.
     */
    @Test
    void aWaitRegisteredJustAfterTheCommitThatReachedItLookedForWaitersIsReleased() {
        AtomicInteger reads = new AtomicInteger();
        // the first read sees revision 0; by the next, revision 1 is published and its commit released nobody
        RevisionWaiters waiters = new RevisionWaiters(() -> reads.getAndIncrement() == 0 ? 0 : 1);
        CompletableFuture<Long> wait = waiters.await(1);
        assertEquals(1L, wait.getNow(null));
        assertEquals(0, waiters.waiting());
    }

    @Test
    void aCancelledWaitIsForgottenAndNeverReleased() {
        CompletableFuture<Long> wait = store.awaitRevision(1);
        wait.cancel(false);
        assertEquals(0, store.waiting());
        create("a");
        assertTrue(wait.isCancelled());
    }
}
