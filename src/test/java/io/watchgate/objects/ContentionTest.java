package io.watchgate.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.watchgate.status.ApiException;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A write that loses races is computed again, a bounded number of times, then answers 409 Conflict. */
class ContentionTest {

    private static final ObjectKey KEY = new ObjectKey("configmaps", "ns", "c");
    /** A store that orders its own writes: consistent at once, so a 404 or 409 an attempt answers stands. */
    private static final Store STORE = new MemoryStore(new ObjectMapper(), 10, 1 << 20, Clock.systemUTC());

    @Test
    void aWriteThatLostARaceIsComputedAgainFromTheNewState() {
        AtomicInteger attempts = new AtomicInteger();
        String written = Contention.retry(STORE, "", "configmaps", "c", () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new StoreException.RevisionConflict(new StoredObject(KEY, JsonNodeFactory.instance.objectNode(),
                        null, attempts.get()));
            }
            return CompletableFuture.completedFuture("written");
        }).join();
        assertEquals("written", written);
        assertEquals(3, attempts.get());
    }

    @Test
    void aRaceLostLaterThroughTheWritesFutureIsRetriedAsWell() {
        // a store shared by replicas learns from etcd that another replica wrote first
        AtomicInteger attempts = new AtomicInteger();
        String written = Contention.retry(STORE, "", "configmaps", "c", () -> attempts.incrementAndGet() < 3
                ? CompletableFuture.<String>failedFuture(new StoreException.RevisionConflict(new StoredObject(KEY,
                        JsonNodeFactory.instance.objectNode(), null, attempts.get())))
                : CompletableFuture.completedFuture("written")).join();
        assertEquals("written", written);
        assertEquals(3, attempts.get());
    }

    @Test
    void aGuardThatChangedIsRetriedByItsOwnRetry() {
        AtomicInteger attempts = new AtomicInteger();
        String written = Contention.retryOnGuard(STORE, "", "configmaps", "c", () -> attempts.incrementAndGet() == 1
                ? CompletableFuture.<String>failedFuture(new StoreException.GuardChanged(KEY))
                : CompletableFuture.completedFuture("written")).join();
        assertEquals("written", written);
        assertEquals(2, attempts.get());
    }

    @Test
    void aWriteThatLosesEveryRaceGivesUpWithAConflictAfterTheLastAttempt() {
        AtomicInteger attempts = new AtomicInteger();
        ApiException conflict = assertThrows(ApiException.class, () -> Contention.<String>retry(STORE, "", "configmaps", "c",
                () -> {
                    attempts.incrementAndGet();
                    throw new StoreException.KeyNotFound(KEY); // gone since it was read: read again
                }));
        assertEquals(Contention.MAX_ATTEMPTS, attempts.get());
        assertEquals(409, conflict.code());
        assertEquals("Conflict", conflict.reason());
        assertEquals("Operation cannot be fulfilled on configmaps \"c\": the object has been modified; please apply "
                + "your changes to the latest version and try again", conflict.getMessage());
    }

    /** A store that holds everything committed before once {@code caughtUp} completes; asked nothing else. */
    private static Store lagging(CompletableFuture<Long> caughtUp) {
        return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("consistentRevision")) {
                        return caughtUp;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aWriteThatFoundNothingIsTriedOnceMoreOnceAStoreThatLaggedHasCaughtUp() {
        // a replica's cache of etcd may not hold yet what another replica wrote
        CompletableFuture<Long> caughtUp = new CompletableFuture<>();
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> written = Contention.retry(lagging(caughtUp), "", "configmaps", "c",
                () -> {
                    if (attempts.incrementAndGet() == 1) {
                        throw ApiException.notFound("", "configmaps", "c");
                    }
                    return CompletableFuture.completedFuture("written");
                });
        assertFalse(written.isDone(), "waits for the store to catch up");
        caughtUp.complete(7L);
        assertEquals("written", written.join());
        assertEquals(2, attempts.get());
    }

    @Test
    void aWriteThatFoundNothingInAStoreThatHoldsEverythingIsA404AtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        ApiException notFound = assertThrows(ApiException.class, () -> Contention.<String>retry(STORE, "",
                "configmaps", "c", () -> {
                    attempts.incrementAndGet();
                    throw ApiException.notFound("", "configmaps", "c");
                }));
        assertEquals(404, notFound.code());
        assertEquals(1, attempts.get());
    }

    @Test
    void whatRefusesTheWriteForAnyOtherReasonIsNotRetried() {
        AtomicInteger attempts = new AtomicInteger();
        assertThrows(StoreException.KeyExists.class, () -> Contention.<String>retry(STORE, "", "configmaps", "c", () -> {
            attempts.incrementAndGet();
            throw new StoreException.KeyExists(KEY);
        }));
        assertEquals(1, attempts.get());
    }
}
