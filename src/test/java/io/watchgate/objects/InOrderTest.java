package io.watchgate.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Writes one after another, each once the one before counts, and no thread waiting in between. */
class InOrderTest {

    @Test
    void eachWriteStartsOnlyOnceTheOneBeforeCompletedAndTheLoopGoesOnWhereToldNotOnTheWritersThread() {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        List<String> started = new ArrayList<>();
        List<Runnable> resumed = new ArrayList<>();
        Executor resumeOn = resumed::add; // runs nothing until the test says so
        CompletableFuture<Void> done = InOrder.forEach(List.of("a", "b").iterator(), item -> {
            started.add(item);
            CompletableFuture<Void> write = new CompletableFuture<>();
            pending.add(write);
            return write;
        }, resumeOn);
        assertEquals(List.of("a"), started, "b waits for a");
        pending.get(0).complete(null); // as the log's thread would
        assertEquals(List.of("a"), started, "not on the thread that completed a");
        resumed.remove(0).run();
        assertEquals(List.of("a", "b"), started);
        pending.get(1).complete(null);
        assertFalse(done.isDone());
        resumed.remove(0).run();
        assertTrue(done.isDone() && !done.isCompletedExceptionally());
    }

    @Test
    void writesThatCountAtOnceGoOnInOneLoopHoweverManyThereAre() {
        List<Integer> written = new ArrayList<>();
        CompletableFuture<Void> done = InOrder.forEach(IntStream.range(0, 100_000).boxed().iterator(), i -> {
            written.add(i);
            return CompletableFuture.completedFuture(null);
        }, task -> {
            throw new AssertionError("nothing waited: nothing to resume");
        });
        assertTrue(done.isDone() && !done.isCompletedExceptionally(), "no deep stack of callbacks either");
        assertEquals(100_000, written.size());
    }

    @Test
    void theFirstFailureEndsTheLoopAndTheRestIsLeftUndone() throws Exception {
        IllegalStateException refused = new IllegalStateException("refused");
        List<String> started = new ArrayList<>();
        CompletableFuture<Void> done = InOrder.forEach(List.of("a", "b", "c").iterator(), item -> {
            started.add(item);
            if (item.equals("b")) {
                return CompletableFuture.failedFuture(refused);
            }
            return CompletableFuture.completedFuture(null);
        }, Runnable::run);
        assertEquals(List.of("a", "b"), started);
        ExecutionException failed = assertThrows(ExecutionException.class, done::get);
        assertSame(refused, failed.getCause());
    }

    @Test
    void aLoopTheExecutorWillNotResumeFailsRatherThanNeverAnswering() {
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> done = InOrder.forEach(List.of("a", "b").iterator(), item -> first, task -> {
            throw new RejectedExecutionException("shutting down");
        });
        first.complete(null);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> done.get(5, TimeUnit.SECONDS));
        assertInstanceOf(RejectedExecutionException.class, failed.getCause());
    }
}
