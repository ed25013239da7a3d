package io.watchgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.status.ApiException;
import io.watchgate.store.StoreException;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A write's working memory (its tree, and the copies checking and patching make) is reserved in the memory budget
 * before it starts, at {@link WritePlacement#WORKING_MEMORY_FACTOR} times its size: a write the budget cannot take
 * now is refused with 429 and Retry-After before it allocates anything, and the reservation ends with the write.
 */
class WritePlacementTest {

    private static final int MIB = 1 << 20;

    private final MemoryBudget budget = new MemoryBudget(256L * MIB, 3);
    private final WritePlacement placement = new WritePlacement(config(), new SimpleMeterRegistry(), budget);

    @Test
    void aWriteHoldsItsWorkingMemoryWhileItRunsAndGivesItBackWhenAnswered() {
        AtomicLong during = new AtomicLong();
        Response response = placement.run(MIB, () -> {
            during.set(budget.used(MemoryBudget.Use.COMPUTING));
            return Uni.createFrom().item(Response.ok().build());
        }).await().indefinitely();

        assertEquals(200, response.getStatus());
        assertEquals((long) WritePlacement.WORKING_MEMORY_FACTOR * MIB, during.get());
        assertEquals(0, budget.used(MemoryBudget.Use.COMPUTING));
    }

    @Test
    void aWriteThatFailsGivesItBackToo() {
        assertThrows(ApiException.class, () -> placement.run(MIB, () -> {
            throw ApiException.badRequest("not JSON");
        }));
        assertEquals(0, budget.used(MemoryBudget.Use.COMPUTING));

        Uni<Response> failing = placement.run(MIB, () -> Uni.createFrom().failure(ApiException.badRequest("late")));
        assertThrows(ApiException.class, () -> failing.await().indefinitely());
        assertEquals(0, budget.used(MemoryBudget.Use.COMPUTING));
    }

    @Test
    void whileOtherWritesHoldTheirShareALargeWriteIsRefusedBeforeItStartsAndASmallOneGoesAhead() {
        // 256 MiB: writes being computed may hold 64 MiB together; this one holds 48, and another as large would
        // pass that share
        AtomicLong started = new AtomicLong();
        placement.run(MIB, () -> {
            StoreException.Overloaded refused = assertThrows(StoreException.Overloaded.class,
                    () -> placement.run(MIB, () -> {
                        started.incrementAndGet();
                        return Uni.createFrom().item(Response.ok().build());
                    }));
            assertEquals(0, started.get(), "refused before it parsed anything");
            assertEquals(3, refused.retryAfterSeconds());
            assertTrue(refused.getMessage().contains("short of memory"), refused.getMessage());
            assertEquals(1, budget.shed(MemoryBudget.Shed.WRITES));

            return placement.run(MIB / 4, () -> Uni.createFrom().item(Response.ok().build()));
        }).await().indefinitely();
        assertEquals(0, budget.used(MemoryBudget.Use.COMPUTING));
    }

    @Test
    void aWriteLargerThanTheShareStillGoesAheadAlone() {
        AtomicLong during = new AtomicLong();
        placement.run(3 * MIB, () -> {
            during.set(budget.used(MemoryBudget.Use.COMPUTING));
            return Uni.createFrom().item(Response.ok().build());
        }).await().indefinitely();
        assertEquals(3L * WritePlacement.WORKING_MEMORY_FACTOR * MIB, during.get());
    }

    @Test
    void whatOthersKeepNeitherRefusesAReservationNorIsShedForIt() {
        AtomicLong asked = new AtomicLong();
        budget.shedder(MemoryBudget.Shed.WATCHERS, b -> asked.incrementAndGet());
        budget.charge(MemoryBudget.Use.WATCHERS, 250L * MIB); // stalled watchers, nearly the whole budget
        asked.set(0);

        Response response = placement.run(MIB, () -> {
            assertEquals(250L * MIB, budget.used(), "a reservation is not counted against the limit");
            return Uni.createFrom().item(Response.ok().build());
        }).await().indefinitely();
        assertEquals(200, response.getStatus());
        assertEquals(0, asked.get(), "no stalled watcher was ended to make room for a reservation");
    }

    @Test
    void aWriteOnAWorkerKeepsItsReservationUntilItsWorkIsDoneEvenIfItsClientLeaves() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            CountDownLatch working = new CountDownLatch(1);
            CountDownLatch finish = new CountDownLatch(1);
            CompletableFuture<Cancellable> subscribed = new CompletableFuture<>();
            vertx.getOrCreateContext().runOnContext(v -> subscribed.complete(
                    placement.run(MIB, () -> { // over the inline size: made on a worker
                        working.countDown();
                        try {
                            finish.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return Uni.createFrom().item(Response.ok().build());
                    }).subscribe().with(response -> { })));
            working.await();
            subscribed.get().cancel(); // the client left
            assertEquals((long) WritePlacement.WORKING_MEMORY_FACTOR * MIB, budget.used(MemoryBudget.Use.COMPUTING),
                    "the worker still parses");
            finish.countDown();
            for (int i = 0; i < 500 && budget.used(MemoryBudget.Use.COMPUTING) != 0; i++) {
                Thread.sleep(10); // polling for the worker's end, which nothing else signals to the test
            }
            assertEquals(0, budget.used(MemoryBudget.Use.COMPUTING), "given back once the work was done");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get();
        }
    }

    private static ApiConfig config() {
        return new ApiConfig() {
            @Override
            public int maxBodyBytes() {
                return 3 * MIB;
            }

            @Override
            public Duration sendTimeout() {
                return Duration.ofSeconds(30);
            }

            @Override
            public long inlineWriteBytes() {
                return 32 * 1024;
            }

            @Override
            public int maxRequestsInflight() {
                return 400;
            }

            @Override
            public int maxMutatingRequestsInflight() {
                return 200;
            }
        };
    }
}
