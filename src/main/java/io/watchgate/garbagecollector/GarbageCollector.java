package io.watchgate.garbagecollector;

import io.watchgate.objects.Finalization;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.objects.Deletions;
import io.watchgate.objects.OwnerReferenceEdits;
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
    private final KindIndex kinds;
    private final String events;
    private final String namespaces;
    /** Commits (as Commit) and work from other threads, in order; bounded in count, and each entry in size. */
    private final BlockingQueue<Object> mail = new ArrayBlockingQueue<>(MAIL_LIMIT);
    private volatile boolean overflowed;
    private final OwnerGraph graph = new OwnerGraph();
    /** Owners in a foreground deletion: a dependent of theirs that goes, or stops blocking, may let them go. */
    private final Set<OwnerId> deletingDependents = new HashSet<>();
    /** Work to judge, each once however often asked for; the collector's thread alone touches it. */
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

    GarbageCollector(Store store, Deletions deletions, OwnerReferenceEdits edits, ResourceTypes types,
            CollectorLease lease) {
        this.store = store;
        this.types = types;
        this.lease = lease;
        this.kinds = new KindIndex(types);
        this.events = types.find("", "v1", "events").orElseThrow().resource();
        this.namespaces = types.namespaces().resource();
        this.writes = new CollectorWrites(timer, this::mail);
        this.actions = new CollectorActions(store, deletions, edits, kinds, graph, writes, pending::add, this::mail,
                deletingDependents::contains);
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

    /** Commit lock held: hands on, in a few bytes, what may concern an owner or a dependent, and returns. */
    private void committed(ChangeEvent change) {
        if (change.key().resource().equals(events)) {
            return; // events neither own nor are owned, for the collector
        }
        if (change.type() == EventType.DELETED || OwnerReference.hasAny(change.object().tree())
                || (change.previous() != null && OwnerReference.hasAny(change.previous().tree()))
                || Finalization.isTerminating(change.object().tree())) {
            mail(Commit.of(change, kinds));
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
                Object item = pending.isEmpty() ? mail.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS) : mail.poll();
                for (int read = 0; item != null; read++) {
                    if (collecting) {
                        deliver(item);
                    }
                    item = read < 1024 ? mail.poll() : null; // then some work, however busy the store
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

    private Work nextWork() {
        Iterator<Work> first = pending.iterator();
        if (!first.hasNext()) {
            return null;
        }
        Work work = first.next();
        first.remove();
        return work;
    }

    private void deliver(Object item) {
        if (item instanceof Commit commit) {
            follow(commit);
        } else if (item instanceof Work work) {
            pending.add(work);
        }
    }

    /** What one commit changes in who owns whom, and the work it makes. */
    private void follow(Commit commit) {
        OwnerGraph.Change change = graph.put(commit.key(), commit.uid(), commit.owners(), commit.namesOwners());
        for (OwnerId owner : change.unblocked()) {
            if (deletingDependents.contains(owner)) {
                pending.add(new Work.ForegroundCheck(owner.key()));
            }
        }
        if (change.ownersChanged()) {
            pending.add(new Work.Dependent(commit.key()));
        }
        OwnerId self = commit.self();
        if (commit.deleted()) {
            deletingDependents.remove(self);
            graph.dependentsOf(self).forEach(dependent -> pending.add(new Work.Dependent(dependent)));
            return;
        }
        followDeletion(commit, self);
    }

    /** An owner whose deletion waits on the collector (a namespace's never does: its contents go with it). */
    private void followDeletion(Commit commit, OwnerId self) {
        if (commit.key().resource().equals(namespaces)) {
            return;
        }
        if (!commit.foreground()) {
            deletingDependents.remove(self);
        } else if (deletingDependents.add(self)) {
            pending.add(new Work.ForegroundOwner(commit.key()));
        }
        if (commit.orphaning()) {
            pending.add(new Work.OrphaningOwner(commit.key()));
        }
    }

    private void forget() {
        mail.clear(); // before the store is read: whatever commits later is in the mail, and read after
        overflowed = false;
        graph.clear();
        deletingDependents.clear();
        pending.clear();
        writes.forgetFailures();
    }

    /** Every object that names an owner or waits for the collector, as the store holds them now. */
    private void readStore() {
        long revision = store.currentRevision();
        Set<String> resources = new TreeSet<>();
        for (ResourceType type : types.all()) {
            resources.add(type.storageResource());
        }
        resources.remove(events);
        try {
            for (String resource : resources) {
                ObjectKey after = null;
                do {
                    Scan scan = store.scan(KeyRange.allOf(resource), revision, after, SCAN_STEP, stored -> true);
                    for (StoredObject object : scan.matches()) {
                        follow(Commit.of(object, kinds));
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
}
