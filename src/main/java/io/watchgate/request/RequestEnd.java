package io.watchgate.request;

import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Work to do once a request is over, whichever way it ends: its response ends, its connection closes first, or it
 * became a WebSocket (a watch) and the WebSocket closes. Vert.x runs a RoutingContext's end handlers for the first
 * two only (an upgraded request's response never ends), so the watch route hands the third over through
 * {@link #upgraded}. Each action runs once.
 */
public final class RequestEnd {

    private static final String KEY = RequestEnd.class.getName();
    private static final String UPGRADED = KEY + ".upgraded";

    private RequestEnd() {
    }

    /**
     * Runs {@code action} once when the request is over, with whether it completed (its response ended, or its
     * WebSocket closed) rather than its connection closing first.
     */
    public static void onEnd(RoutingContext context, Consumer<Boolean> action) {
        AtomicBoolean done = new AtomicBoolean();
        Consumer<Boolean> once = completed -> {
            if (done.compareAndSet(false, true)) {
                action.accept(completed);
            }
        };
        context.addEndHandler(ended -> once.accept(ended.succeeded()));
        List<Consumer<Boolean>> actions = context.get(KEY);
        if (actions == null) {
            actions = new ArrayList<>(2);
            context.put(KEY, actions);
        }
        actions.add(once);
    }

    /** What to run when the WebSocket the request became closes (or its upgrade fails): the request's end. */
    public static Runnable upgraded(RoutingContext context) {
        context.put(UPGRADED, Boolean.TRUE);
        List<Consumer<Boolean>> actions = context.get(KEY);
        if (actions == null) {
            return () -> {
            };
        }
        List<Consumer<Boolean>> all = List.copyOf(actions);
        return () -> all.forEach(action -> action.accept(true));
    }

    /** Whether the request became a WebSocket (its status, for the audit log, is 101 Switching Protocols). */
    public static boolean wasUpgraded(RoutingContext context) {
        return Boolean.TRUE.equals(context.get(UPGRADED));
    }
}
