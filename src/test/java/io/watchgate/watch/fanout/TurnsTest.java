package io.watchgate.watch.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Watchers take turns at their long work on their loop, and the loop's other clients do not wait for all of them:
 * what was queued on the loop meanwhile runs between slices of turns.
 */
class TurnsTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Runs {@code test} on a fresh event-loop context, and waits for what it completes. */
    private <T> T onLoop(BiConsumer<Context, CompletableFuture<T>> test) throws Exception {
        Context context = vertx.getOrCreateContext();
        CompletableFuture<T> done = new CompletableFuture<>();
        context.runOnContext(v -> test.accept(context, done));
        return done.get(30, TimeUnit.SECONDS);
    }

    @Test
    void turnsRunInTheOrderTheyWereAskedFor() throws Exception {
        List<Integer> ran = onLoop((context, done) -> {
            Turns turns = new Turns(context);
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int turn = i;
                turns.take(() -> {
                    order.add(turn);
                    if (turn == 1) {
                        turns.take(() -> { // asked for later: after every turn asked for before it
                            order.add(10);
                            done.complete(order);
                        });
                    }
                });
            }
        });
        assertEquals(List.of(0, 1, 2, 3, 4, 10), ran);
    }

    @Test
    void anotherClientOfTheLoopWaitsForASliceOfTurnsNotForAllOfThem() throws Exception {
        int busyWatchers = 200;
        int turnsBeforeIt = onLoop((context, done) -> {
            Turns turns = new Turns(context);
            int[] taken = {0};
            for (int i = 0; i < busyWatchers; i++) {
                // each a millisecond of work, as a watcher writing a megabyte object: 200 ms in all
                turns.take(() -> {
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    if (taken[0]++ == 0) {
                        // another client's answer, queued once the turns have begun
                        context.runOnContext(v -> done.complete(taken[0]));
                    }
                });
            }
        });
        assertTrue(turnsBeforeIt < busyWatchers / 4,
                "the other client's task waited for " + turnsBeforeIt + " turns of " + busyWatchers);
    }
}
