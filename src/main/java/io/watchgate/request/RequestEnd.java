package io.watchgate.request;

import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Work to do once a request is over, whichever way it ends: its response ends, its connection closes first, or it
 * became a WebSocket (a watch) and the WebSocket closes. Vert.x runs a RoutingContext's end handlers for the first
 * two only (an upgraded request's response never ends), so the watch route hands the third over through
 * {@link #upgraded}. The actions run once, each apart: one that throws is logged and keeps none of the others (the
 * places in flight given back among them) from running.
 */
public final class RequestEnd {

    private static final Logger LOG = Logger.getLogger(RequestEnd.class);
    private static final String KEY = RequestEnd.class.getName();

    /** One request's end: its actions, whether they ran, whether the request became a WebSocket. */
    private static final class Actions {
        private final List<Consumer<Boolean>> actions = new ArrayList<>(2);
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile boolean upgraded;

        void finish(boolean completed) {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            for (Consumer<Boolean> action : actions) {
                try {
                    action.accept(completed);
                } catch (RuntimeException e) {
                    LOG.warnf(e, "an action at a request's end failed");
                }
            }
        }
    }

    private RequestEnd() {
    }

    /**
     * Runs {@code action} once when the request is over, with whether it completed (its response ended, or its
     * WebSocket closed) rather than its connection closing first.
     */
    public static void onEnd(RoutingContext context, Consumer<Boolean> action) {
        of(context).actions.add(action);
    }

    /**
     * What to run when the WebSocket the request became closes (or its upgrade fails): the request's end, for its
     * actions here and for Quarkus (see {@link UpgradedRequests}).
     */
    public static Runnable upgraded(RoutingContext context) {
        Actions end = of(context);
        end.upgraded = true;
        return () -> {
            end.finish(true);
            UpgradedRequests.done(context.request());
        };
    }

    /** Whether the request became a WebSocket (its status, for the audit log, is 101 Switching Protocols). */
    public static boolean wasUpgraded(RoutingContext context) {
        Actions end = context.get(KEY);
        return end != null && end.upgraded;
    }

    private static Actions of(RoutingContext context) {
        Actions end = context.get(KEY);
        if (end == null) {
            end = new Actions();
            context.put(KEY, end);
            Actions registered = end;
            context.addEndHandler(ended -> registered.finish(ended.succeeded()));
        }
        return end;
    }
}
