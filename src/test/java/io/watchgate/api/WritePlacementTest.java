package io.watchgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.status.ApiException;
import io.watchgate.store.StoreException;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
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
            during.set(budget.used(MemoryBudget.Use.REQUESTS));
            return Uni.createFrom().item(Response.ok().build());
        }).await().indefinitely();

        assertEquals(200, response.getStatus());
        assertEquals((long) WritePlacement.WORKING_MEMORY_FACTOR * MIB, during.get());
        assertEquals(0, budget.used(MemoryBudget.Use.REQUESTS));
    }

    @Test
    void aWriteThatFailsGivesItBackToo() {
        assertThrows(ApiException.class, () -> placement.run(MIB, () -> {
            throw ApiException.badRequest("not JSON");
        }));
        assertEquals(0, budget.used(MemoryBudget.Use.REQUESTS));

        Uni<Response> failing = placement.run(MIB, () -> Uni.createFrom().failure(ApiException.badRequest("late")));
        assertThrows(ApiException.class, () -> failing.await().indefinitely());
        assertEquals(0, budget.used(MemoryBudget.Use.REQUESTS));
    }

    @Test
    void whileOtherWritesHoldTheirShareALargeWriteIsRefusedBeforeItStartsAndASmallOneGoesAhead() {
        // 256 MiB: writes being computed may hold 64 MiB together; this one holds 48
        AtomicLong started = new AtomicLong();
        placement.run(2 * MIB, () -> {
            StoreException.Overloaded refused = assertThrows(StoreException.Overloaded.class,
                    () -> placement.run(MIB, () -> {
                        started.incrementAndGet();
                        return Uni.createFrom().item(Response.ok().build());
                    }));
            assertEquals(0, started.get(), "refused before it parsed anything");
            assertEquals(3, refused.retryAfterSeconds());
            assertTrue(refused.getMessage().contains("short of memory"), refused.getMessage());
            assertEquals(1, budget.shed(MemoryBudget.Shed.WRITES));

            return placement.run(MIB / 2, () -> Uni.createFrom().item(Response.ok().build()));
        }).await().indefinitely();
        assertEquals(0, budget.used(MemoryBudget.Use.REQUESTS));
    }

    @Test
    void aWriteLargerThanTheShareStillGoesAheadAlone() {
        AtomicLong during = new AtomicLong();
        placement.run(3 * MIB, () -> {
            during.set(budget.used(MemoryBudget.Use.REQUESTS));
            return Uni.createFrom().item(Response.ok().build());
        }).await().indefinitely();
        assertEquals(72L * MIB, during.get());
    }

    @Test
    void whatOthersKeepNeverRefusesEveryWriteItTakesThemToBeShed() {
        AtomicLong asked = new AtomicLong();
        budget.shedder(MemoryBudget.Shed.WATCHERS, b -> asked.incrementAndGet());
        budget.charge(MemoryBudget.Use.WATCHERS, 250L * MIB); // stalled watchers, nearly the whole budget

        Response response = placement.run(MIB, () -> Uni.createFrom().item(Response.ok().build()))
                .await().indefinitely();
        assertEquals(200, response.getStatus());
        assertTrue(asked.get() > 0, "past the limit, the stalled watchers were asked to give way");
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
