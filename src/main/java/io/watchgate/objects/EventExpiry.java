package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.CommitListener;
import io.watchgate.store.EventType;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Scan;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceTypes;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Events go {@code watchgate.events.ttl} after they were last written, as kube-apiserver's {@code --event-ttl} has
 * etcd expire them: whatever writes them, whatever they say, finalizers or not; watchers see each go as a DELETED
 * event. The time of each event's last write comes from its commit; events already stored when the server starts
 * are timed from the newest time they carry (created, last seen, observed), and never from later than the start.
 * Each deletion names the revision it judged, so an event written again meanwhile stays; and every replica of an
 * etcd-backed server expiring the same event changes nothing after the first.
 */
@ApplicationScoped
public class EventExpiry {

    private static final Logger LOG = Logger.getLogger(EventExpiry.class);
    private static final int SCAN_STEP = 500;

    private final Store store;
    private final Deletions deletions;
    private final Clock clock;
    private final long ttlMillis;
    private final String events;
    /** When each stored event is due to go, and the revision that made it due: one entry per event stored. */
    private final Map<ObjectKey, Due> due = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "event-expiry");
        thread.setDaemon(true);
        return thread;
    });
    private CommitListener.Registration registration;

    EventExpiry(Store store, Deletions deletions, Clock clock, EventConfig config, ResourceTypes types) {
        this.store = store;
        this.deletions = deletions;
        this.clock = clock;
        this.ttlMillis = config.ttl().toMillis();
        this.events = types.find("", "v1", "events").orElseThrow().resource();
    }

    void start(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.APPLICATION + 800) StartupEvent event) {
        if (ttlMillis <= 0) {
            return;
        }
        registration = store.addCommitListener(this::committed); // before the scan: no write falls between
        long started = clock.millis();
        sweeper.execute(() -> timeStoredEvents(started)); // on the sweeper's thread, not in the server's start
        // at a hundredth of the TTL (so an hour's events stay 36 s over at most), at least every second
        long period = Math.max(1000, Math.min(ttlMillis / 100, 60_000));
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                sweep(clock.instant());
            } catch (RuntimeException e) {
                // a failed sweep must not end the schedule (an executor stops a task that throws)
                LOG.warnf(e, "expiring events failed; trying again in %d ms", period);
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    /** The events stored before the start, timed from the newest time each carries, and never from after the start. */
    private void timeStoredEvents(long started) {
        ObjectKey after = null;
        try {
            do {
                Scan scan = store.scan(KeyRange.allOf(events), store.currentRevision(), after, SCAN_STEP,
                        stored -> true);
                for (StoredObject stored : scan.matches()) {
                    due.putIfAbsent(stored.key(), new Due(stored.revision(),
                            Math.min(started, lastWrittenMillis(stored.tree())) + ttlMillis));
                }
                after = scan.lastExamined();
            } while (after != null);
        } catch (RuntimeException e) {
            // those not timed yet stay until deleted or written again: said, not hidden
            LOG.warnf(e, "could not time the events stored before the start, after %s", after);
        }
    }

    void stop(@Observes ShutdownEvent event) {
        if (registration != null) {
            registration.close();
        }
        sweeper.shutdownNow();
    }

    /** Commit lock held: only notes when the event is due. */
    private void committed(ChangeEvent change) {
        if (!change.key().resource().equals(events)) {
            return;
        }
        if (change.type() == EventType.DELETED) {
            due.remove(change.key());
        } else {
            due.put(change.key(), new Due(change.revision(), change.committedAtMillis() + ttlMillis));
        }
    }

    /**
     * Deletes every event due by {@code now}, each at the revision it was judged at (one written again meanwhile
     * stays, due again from that write). Runs on the sweeper's thread; public for the tests, which sweep at a time
     * of their choosing.
     *
     * @return how many it deleted
     */
    public int sweep(Instant now) {
        int expired = 0;
        for (Map.Entry<ObjectKey, Due> entry : due.entrySet()) {
            Due event = entry.getValue();
            if (event.atMillis() > now.toEpochMilli()) {
                continue;
            }
            try {
                // at the revision judged: a write since (due later now, once it commits) makes this a conflict
                ChangeEvent deleted = store.submit(Mutation.delete(entry.getKey(), event.revision())).join();
                deletions.removed(deleted.object()).join(); // a namespace may have waited for its last event
                expired++;
            } catch (RuntimeException e) {
                if (store.latest(entry.getKey()) == null) {
                    due.remove(entry.getKey(), event); // gone by other hands
                }
                // else written again since, or the store refused: the next sweep judges it again
                LOG.debugf("event %s not expired now: %s", entry.getKey(), e.getMessage());
            }
        }
        return expired;
    }

    /** An event's revision as judged, and when it is due to go, in epoch milliseconds. */
    private record Due(long revision, long atMillis) {
    }

    /** The newest time an event carries: its creation, its last sighting, its observed series. */
    private static long lastWrittenMillis(JsonNode event) {
        long latest = 0;
        for (JsonNode time : new JsonNode[] { event.path("metadata").path("creationTimestamp"),
                event.path("lastTimestamp"), event.path("eventTime"), event.path("series").path("lastObservedTime") }) {
            if (time.isTextual()) {
                try {
                    latest = Math.max(latest, OffsetDateTime.parse(time.textValue()).toInstant().toEpochMilli());
                } catch (DateTimeException | ArithmeticException e) {
                    // not a time: the others say when
                }
            }
        }
        return latest;
    }
}
