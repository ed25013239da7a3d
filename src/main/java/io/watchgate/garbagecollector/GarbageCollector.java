package io.watchgate.garbagecollector;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.objects.Deletions;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.CommitListener;
import io.watchgate.store.EventType;
import io.watchgate.store.KeyRange;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Scan;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Deletes what no owner holds any more, as kube-controller-manager's garbage collector does by
 * {@code metadata.ownerReferences}: dependents of an owner deleted in the background go after it; an owner deleted
 * in the foreground waits for the dependents that block it; one deleted with the Orphan policy lets its dependents
 * go their own way. A dependent with several owners goes when the last one is gone.
 *
 * <p>One thread judges, from the store's commits, which it is told of in order; the store's commit thread only
 * hands each relevant commit on (bounded: if the collector falls that far behind, it reads the store anew, as an
 * informer relists). What it knows (who owns whom) it rebuilds from the store at start and whenever it takes up
 * collecting, so references left dangling before a restart, or work another replica left half done, are found and
 * finished. Its decisions are taken again from the newest state each time, never from what it remembers.
 */
@ApplicationScoped
public class GarbageCollector {

    private static final Logger LOG = Logger.getLogger(GarbageCollector.class);
    /** Commits and work waiting to be read; past this the collector reads the store anew instead. */
    static final int MAIL_LIMIT = 65_536;
    private static final int SCAN_STEP = 500;
    private static final long IDLE_POLL_MILLIS = 200;

    private final Store store;
    private final ResourceTypes types;
    private final CollectorLease lease;
    private final String events;
    private final BlockingQueue<Object> mail = new ArrayBlockingQueue<>(MAIL_LIMIT);
    private volatile boolean overflowed;
    private final OwnerGraph graph = new OwnerGraph();
    /** Owners being deleted in the foreground, by uid: a dependent of theirs that goes may let them go. */
    private final Map<String, ObjectKey> foregroundOwners = new HashMap<>();
    private final Set<Work> pending = new LinkedHashSet<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "garbage-collector-retries");
        thread.setDaemon(true);
        return thread;
    });
    private final CollectorWrites writes;
    private final CollectorActions actions;
    private final Thread collector = new Thread(this::run, "garbage-collector");
    private volatile boolean running;
    private boolean collecting;
    private CommitListener.Registration registration;

    GarbageCollector(Store store, Deletions deletions, ResourceTypes types, CollectorLease lease) {
        this.store = store;
        this.types = types;
        this.lease = lease;
        this.events = types.find("", "v1", "events").orElseThrow().resource();
        this.writes = new CollectorWrites(timer, this::mail);
        this.actions = new CollectorActions(store, deletions, types, graph, writes, this::mail);
        collector.setDaemon(true);
    }

    void start(@Observes @Priority(jakarta.interceptor.Interceptor.Priority.APPLICATION + 850) StartupEvent event) {
        registration = store.addCommitListener(this::committed);
        running = true;
        collector.start();
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        collector.interrupt();
        timer.shutdownNow();
        if (registration != null) {
            registration.close();
        }
    }

    private synchronized boolean pendingIsEmpty() {
        return pending.isEmpty();
    }

    /** Commit lock held: hands on what may concern an owner or a dependent, and returns. */
    private void committed(ChangeEvent change) {
        if (change.key().resource().equals(events)) {
            return; // events neither own nor are owned, for the collector
        }
        boolean relevant = change.type() == EventType.DELETED || OwnerReference.hasAny(change.object().tree())
                || (change.previous() != null && OwnerReference.hasAny(change.previous().tree()))
                || Lifecycle.isTerminating(change.object());
        if (relevant) {
            mail(change);
        }
    }

    private void mail(Object item) {
        if (!mail.offer(item)) {
            overflowed = true;
        }
    }

    private void run() {
        while (running) {
            try {
                boolean lead = lease.leading();
                if (lead != collecting || (overflowed && lead)) {
                    collecting = lead;
                    forget();
                    if (lead) {
                        readStore();
                    }
                }
                Object item = pendingIsEmpty() ? mail.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS) : mail.poll();
                for (int read = 0; item != null && read < 1024; read++) {
                    if (collecting) {
                        deliver(item);
                    }
                    item = mail.poll();
                }
                if (item != null && collecting) {
                    deliver(item);
                }
                Work next = nextWork();
                if (next != null && collecting) {
                    actions.judge(next);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.warnf(e, "garbage collection failed; going on");
            }
        }
    }

    private synchronized Work nextWork() {
        Iterator<Work> first = pending.iterator();
        if (!first.hasNext()) {
            return null;
        }
        Work work = first.next();
        first.remove();
        return work;
    }

    private synchronized void enqueue(Work work) {
        pending.add(work);
    }

    private void deliver(Object item) {
        if (item instanceof ChangeEvent change) {
            follow(change);
        } else if (item instanceof Work work) {
            enqueue(work);
        }
    }

    /** What one commit changes in who owns whom, and the work it makes. */
    private void follow(ChangeEvent change) {
        ObjectKey key = change.key();
        StoredObject object = change.object();
        String uid = OwnerLookup.uidOf(object);
        if (change.type() == EventType.DELETED) {
            wakeForegroundOwners(graph.put(key, Set.of()));
            foregroundOwners.remove(uid);
            graph.dependentsOf(uid).forEach(dependent -> enqueue(new Work.Dependent(dependent)));
            return;
        }
        Set<String> owners = ownerUids(object);
        wakeForegroundOwners(graph.put(key, owners));
        if (!owners.isEmpty() && (change.previous() == null || !owners.equals(ownerUids(change.previous())))) {
            enqueue(new Work.Dependent(key));
        }
        followDeletion(key, object, uid);
    }

    /** An owner whose deletion waits on the collector. */
    private void followDeletion(ObjectKey key, StoredObject object, String uid) {
        if (!Lifecycle.isTerminating(object)) {
            return;
        }
        if (Lifecycle.hasFinalizer(object, Lifecycle.FOREGROUND)) {
            foregroundOwners.put(uid, key);
            enqueue(new Work.ForegroundOwner(key));
        }
        if (Lifecycle.hasFinalizer(object, Lifecycle.ORPHAN)) {
            enqueue(new Work.OrphaningOwner(key));
        }
    }

    /** Owners in the foreground that a dependent let go of (or went): each may now be free to go. */
    private void wakeForegroundOwners(Set<String> dropped) {
        for (String owner : dropped) {
            ObjectKey waiting = foregroundOwners.get(owner);
            if (waiting != null) {
                enqueue(new Work.ForegroundOwner(waiting));
            }
        }
    }

    private void forget() {
        mail.clear(); // before the store is read: whatever commits later is in the mail, and read after
        overflowed = false;
        graph.clear();
        foregroundOwners.clear();
        synchronized (this) {
            pending.clear();
        }
        writes.forgetFailures();
    }

    /** Every object that names an owner or waits for the collector, as the store holds them now. */
    private void readStore() {
        long revision = store.currentRevision();
        Set<String> resources = new TreeSet<>();
        for (ResourceType type : types.all()) {
            resources.add(type.resource());
        }
        resources.remove(events);
        try {
            for (String resource : resources) {
                ObjectKey after = null;
                do {
                    Scan scan = store.scan(KeyRange.allOf(resource), revision, after, SCAN_STEP, stored -> true);
                    for (StoredObject object : scan.matches()) {
                        Set<String> owners = ownerUids(object);
                        graph.put(object.key(), owners);
                        if (!owners.isEmpty()) {
                            enqueue(new Work.Dependent(object.key()));
                        }
                        followDeletion(object.key(), object, OwnerLookup.uidOf(object));
                    }
                    after = scan.lastExamined();
                } while (after != null);
            }
            LOG.debugf("garbage collector read the store at %d: %d objects name owners", revision, graph.dependents());
        } catch (StoreException e) {
            // compacted under the read, say: read it all again
            LOG.infof("garbage collector's read of the store failed (%s); reading it again", e.getMessage());
            overflowed = true;
        }
    }

    private static Set<String> ownerUids(StoredObject object) {
        Set<String> uids = new HashSet<>();
        OwnerReference.of(object.tree()).forEach(reference -> uids.add(reference.uid()));
        return uids;
    }
}
