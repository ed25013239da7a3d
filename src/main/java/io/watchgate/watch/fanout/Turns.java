package io.watchgate.watch.fanout;

import io.vertx.core.Context;
import io.watchgate.http.HeldFlushes;
import io.watchgate.http.VertxInternals;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The watchers of one event loop taking turns at their long work (initial events, catching up from history, going
 * on after a drain), one stretch a turn, in the order they asked. One task of the loop runs turns for a slice of
 * time, then yields until the loop's next round. Were each stretch a task of the loop's own, every task queued
 * behind them (an answer a worker wrote, an event to fan out) would wait for a stretch of every busy watcher of the
 * loop: with a hundred watchers each sending a megabyte object, seconds. This way it waits for one slice at most.
 * Loop thread only.
 */
final class Turns {

    private static final Logger LOG = Logger.getLogger(Turns.class);
    /** Long enough for a stretch or two of a megabyte (a copy and a socket write), short beside what clients notice. */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final Context context;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private boolean scheduled;

    Turns(Context context) {
        this.context = context;
    }

    /** {@code turn} runs after the turns asked for before it, in the loop's next round or a later one. */
    void take(Runnable turn) {
        waiting.add(turn);
        if (!scheduled) {
            scheduled = true;
            VertxInternals.nextRound(context, this::runSliceHoldingFlushes);
        }
    }

    /** A watcher catching up writes many events in its stretch: its connection is flushed once, at the slice's end. */
    private void runSliceHoldingFlushes() {
        HeldFlushes.around(this::runSlice);
    }

    private void runSlice() {
        scheduled = false;
        long end = System.nanoTime() + SLICE_NANOS;
        try {
            // a turn that takes another schedules a round for it, which may find it run already in this one
            while (!waiting.isEmpty() && System.nanoTime() - end < 0) {
                Runnable turn = waiting.poll();
                try {
                    turn.run();
                } catch (RuntimeException e) {
                    LOG.error("a watcher's turn failed; the others go on", e); // watchers end themselves: not expected
                }
            }
        } finally {
            // an Error out of one turn must not leave the others waiting for a turn nobody schedules
            if (!waiting.isEmpty() && !scheduled) {
                scheduled = true;
                VertxInternals.nextRound(context, this::runSliceHoldingFlushes);
            }
        }
    }
}
