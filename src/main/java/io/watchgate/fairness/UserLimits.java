package io.watchgate.fairness;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.api.InFlightLimit;
import io.watchgate.authn.Identities;
import io.watchgate.authn.UserInfo;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.QueryParameters;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestEnd;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.RouteOrder;
import io.watchgate.watch.http.WatchRoute;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each user's share ({@link FairnessConfig}): requests in flight and open watches counted per user, writes through a
 * token bucket per user; past a share, 429 TooManyRequests with {@code Retry-After} (when a token comes, for writes),
 * before anything reads the body (a watch is told in its own form: an EventSource gets a {@code retry:}), and other
 * users go on as before. The user charged is the one authentication named,
 * so impersonating many users does not multiply a share. Refusals are counted per user in
 * {@code watchgate_user_refusals_total}, its labels bounded ({@link UserLabels}).
 */
@ApplicationScoped
public class UserLimits {

    /** Buckets are swept this often; past this many users with a bucket, a new one writes unmetered until a sweep. */
    private static final long SWEEP_MILLIS = 10_000;
    private static final int MAX_METERED_WRITERS = 100_000;

    private final FairnessConfig config;
    private final Refusals refusals;
    private final MeterRegistry registry;
    private final Vertx vertx;
    private final UserCounts requests = new UserCounts();
    private final UserCounts watches = new UserCounts();
    private final WriteRates writes;
    private final UserLabels labels;
    private final ConcurrentHashMap<String, Counter> refusalCounters = new ConcurrentHashMap<>();
    private long sweeper = -1;

    UserLimits(FairnessConfig config, Refusals refusals, MeterRegistry registry, Vertx vertx) {
        this.config = config;
        this.refusals = refusals;
        this.registry = registry;
        this.vertx = vertx;
        this.writes = new WriteRates(config.mutatingRequestsPerSecondPerUser(), config.mutatingBurstPerUser(),
                MAX_METERED_WRITERS);
        this.labels = new UserLabels(config.labelledUsers());
        Gauge.builder("watchgate.users.watching", watches, UserCounts::users)
                .description("users with at least one watch open").register(registry);
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.USER_LIMITS.order()).handler(this::admit);
    }

    void start(@Observes StartupEvent event) {
        if (config.mutatingRequestsPerSecondPerUser() > 0) {
            sweeper = vertx.setPeriodic(SWEEP_MILLIS, id -> vertx.executeBlocking(() -> {
                writes.sweep(System.nanoTime());
                return null;
            }, false));
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (sweeper >= 0) {
            vertx.cancelTimer(sweeper);
        }
    }

    private void admit(RoutingContext context) {
        UserInfo user = Identities.authenticated(context);
        if (user.isMaster()) {
            context.next(); // exempt, as kube's priority and fairness exempts system:masters
            return;
        }
        String name = user.name();
        RequestInfo info = RequestInfos.of(context);
        if (InFlightLimit.longRunning(info)) {
            // a stream holds as many of its user's watch places as it asks for watches (one at least)
            int places = InFlightLimit.isStream(info) ? Math.max(1, QueryParameters.all(context, "watch").size()) : 1;
            if (!hold(context, watches, name, config.maxWatchesPerUser(), places, Refusals.Reason.USER_WATCHES)) {
                return;
            }
        } else if (!hold(context, requests, name, config.maxRequestsInflightPerUser(), 1,
                Refusals.Reason.USER_REQUESTS_INFLIGHT)) {
            return;
        }
        if (!InFlightLimit.READ_VERBS.contains(info.verb()) && config.mutatingRequestsPerSecondPerUser() > 0) {
            long retryAfter = writes.tryWrite(name, System.nanoTime());
            if (retryAfter > 0) {
                refuse(context, name, Refusals.Reason.USER_WRITE_RATE, retryAfter);
                return;
            }
        }
        context.next();
    }

    /**
     * Takes one more watch place for the user of {@code context}, for a watch a WebSocket stream adds while it runs
     * (until {@link #giveBackWatch}); false, counted, when the user's share is used up.
     */
    public boolean takeWatch(RoutingContext context) {
        UserInfo user = Identities.authenticated(context);
        if (user.isMaster() || config.maxWatchesPerUser() <= 0) {
            return true;
        }
        if (watches.tryTake(user.name(), config.maxWatchesPerUser())) {
            return true;
        }
        count(user.name(), Refusals.Reason.USER_WATCHES);
        return false;
    }

    /** Gives back a place {@link #takeWatch} took. */
    public void giveBackWatch(RoutingContext context) {
        UserInfo user = Identities.authenticated(context);
        if (!user.isMaster() && config.maxWatchesPerUser() > 0) {
            watches.giveBack(user.name());
        }
    }

    /** Takes {@code places} of the user's places until the response ends; false (and answered) if too few are left. */
    private boolean hold(RoutingContext context, UserCounts counts, String name, int limit, int places,
            Refusals.Reason reason) {
        if (limit <= 0) {
            return true;
        }
        if (!counts.tryTake(name, limit, places)) {
            refuse(context, name, reason, 1);
            return false;
        }
        // once: at the response's end, its connection's close, or its WebSocket's close, whichever comes first
        RequestEnd.onEnd(context, completed -> counts.giveBack(name, places));
        return true;
    }

    private void refuse(RoutingContext context, String user, Refusals.Reason reason, long retryAfterSeconds) {
        count(user, reason);
        RequestInfo info = RequestInfos.of(context);
        if (RequestInfo.WATCH.equals(info.verb()) || InFlightLimit.isStream(info)) {
            // in the watch's own form: an EventSource given a bare 429 would never come back
            WatchRoute.refuseWatch(context, InFlightLimit.tooManyRequests(retryAfterSeconds));
        } else {
            InFlightLimit.refuse(context, retryAfterSeconds);
        }
    }

    private void count(String user, Refusals.Reason reason) {
        refusals.count(reason);
        String label = labels.of(user);
        refusalCounters.computeIfAbsent(label + '\0' + reason.tag(), key -> Counter.builder("watchgate.user.refusals")
                .tag("user", label).tag("limit", reason.tag())
                .description("requests refused for going past their user's share; the first users refused are "
                        + "named, the others are \"other\"").register(registry)).increment();
    }
}
