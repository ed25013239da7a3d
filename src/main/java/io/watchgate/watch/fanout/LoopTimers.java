package io.watchgate.watch.fanout;

import io.vertx.core.Vertx;
import io.watchgate.http.HeldFlushes;
import io.watchgate.watch.Subscriber;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every subscriber deadline of one event loop (ends, bookmarks, heartbeats) behind a single Vert.x timer, armed for
 * the earliest. Loop thread only.
 */
final class LoopTimers {

    private record Due(long atMillis, long sequence, Subscriber subscriber, Subscriber.TimerKind kind)
            implements Comparable<Due> {
        @Override
        public int compareTo(Due other) {
            int byTime = Long.compare(atMillis, other.atMillis);
            return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
        }
    }

    private final Vertx vertx;
    private final TreeSet<Due> queue = new TreeSet<>();
    private final Map<Subscriber, List<Due>> bySubscriber = new HashMap<>();
    private long sequence;
    private long timerId = -1;
    private long armedFor = Long.MAX_VALUE;

    LoopTimers(Vertx vertx) {
        this.vertx = vertx;
    }

    void schedule(Subscriber subscriber, Subscriber.TimerKind kind, long delayMillis) {
        Due due = new Due(now() + Math.max(0, delayMillis), sequence++, subscriber, kind);
        queue.add(due);
        bySubscriber.computeIfAbsent(subscriber, w -> new ArrayList<>(3)).add(due);
        arm();
    }

    void cancel(Subscriber subscriber) {
        List<Due> dues = bySubscriber.remove(subscriber);
        if (dues != null) {
            queue.removeAll(dues);
        }
    }

    void cancelAll() {
        queue.clear();
        bySubscriber.clear();
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    private void arm() {
        if (queue.isEmpty()) {
            return;
        }
        long first = queue.first().atMillis();
        if (timerId >= 0 && armedFor <= first) {
            return;
        }
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
        armedFor = first;
        // the bookmarks and heartbeats due together for the watches of one HTTP/2 connection go out in one write
        timerId = vertx.setTimer(Math.max(1, first - now()), id -> HeldFlushes.around(this::fire));
    }

    private void fire() {
        timerId = -1;
        armedFor = Long.MAX_VALUE;
        long now = now();
        try {
            while (!queue.isEmpty() && queue.first().atMillis() <= now) {
                Due due = queue.pollFirst();
                List<Due> dues = bySubscriber.get(due.subscriber());
                if (dues != null) {
                    dues.remove(due);
                    if (dues.isEmpty()) {
                        bySubscriber.remove(due.subscriber());
                    }
                }
                try {
                    due.subscriber().onTimer(due.kind());
                } catch (RuntimeException e) {
                    due.subscriber().fail(e);
                }
            }
        } finally {
            arm();
        }
    }

    private static long now() {
        return System.nanoTime() / 1_000_000;
    }
}
