package io.watchgate.garbagecollector;

import io.watchgate.objects.Finalization;
import io.watchgate.objects.DeleteOptions;
import io.watchgate.objects.Deletions;
import io.watchgate.objects.OwnerReferenceEdits;
import io.watchgate.objects.Propagation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What the collector does about one piece of work, judged from the newest state of the store, as
 * kube-controller-manager's collector judges it from live reads: every decision is taken again from scratch each
 * time, so work interrupted (a failed write, a restart, another replica taking over) is simply judged again.
 * Runs on the collector's thread.
 */
final class CollectorActions {

    private final Store store;
    private final Deletions deletions;
    private final OwnerReferenceEdits edits;
    private final KindIndex kinds;
    private final OwnerLookup owners;
    private final OwnerGraph graph;
    private final CollectorWrites writes;
    private final Consumer<Work> enqueue;
    private final Consumer<Work> later;
    private final Predicate<OwnerId> deletingDependents;

    /**
     * @param enqueue            adds work, from the collector's thread
     * @param later              adds work from any thread (a write's completion)
     * @param deletingDependents whether an owner is in a foreground deletion
     */
    CollectorActions(Store store, Deletions deletions, OwnerReferenceEdits edits, KindIndex kinds, OwnerGraph graph,
            CollectorWrites writes, Consumer<Work> enqueue, Consumer<Work> later,
            Predicate<OwnerId> deletingDependents) {
        this.store = store;
        this.deletions = deletions;
        this.edits = edits;
        this.kinds = kinds;
        this.owners = new OwnerLookup(kinds, store);
        this.graph = graph;
        this.writes = writes;
        this.enqueue = enqueue;
        this.later = later;
        this.deletingDependents = deletingDependents;
    }

    void judge(Work work) throws InterruptedException {
        boolean settled;
        if (work instanceof Work.Dependent) {
            settled = dependent(work);
        } else if (work instanceof Work.OrphaningOwner) {
            settled = orphaning(work);
        } else if (work instanceof Work.ForegroundOwner) {
            settled = foregroundOwner(work);
        } else {
            settled = foregroundCheck(work);
        }
        if (settled) {
            writes.settled(work);
        }
    }

    /**
     * A dependent stays while one owner holds it, losing its references to owners gone or waiting for it; with none
     * left it is deleted: in the foreground when an owner waits and it has dependents of its own (they go first),
     * else as its own finalizer or its type says (Background).
     *
     * @return whether nothing more is to be done for it (no write started, nothing put off)
     */
    private boolean dependent(Work work) throws InterruptedException {
        StoredObject dependent = store.latest(work.key());
        if (dependent == null || Finalization.isTerminating(dependent.tree())) {
            return true; // gone, or going: a foreground owner waits for its DELETED event
        }
        List<OwnerReference> references = OwnerReference.of(dependent.tree());
        boolean held = false;
        boolean waited = false;
        Set<String> letGo = new TreeSet<>();
        for (OwnerReference reference : references) {
            switch (owners.stateOf(reference, work.key())) {
                case SOLID -> held = true;
                case WAITING -> {
                    waited = true;
                    letGo.add(reference.uid());
                }
                case DANGLING -> letGo.add(reference.uid());
                case OUT_OF_SCOPE -> {
                    return true; // never collected, as kube's collector never collects it
                }
                case UNKNOWN_KIND -> {
                    writes.retryLater(work, "an owner's kind " + reference.apiVersion() + "/" + reference.kind()
                            + " is not served");
                    return false;
                }
            }
        }
        if (references.isEmpty() || (held && letGo.isEmpty())) {
            return true;
        }
        if (held) {
            writes.start(work, () -> edits.drop(work.key(), letGo), () -> { });
            return false;
        }
        OwnerId self = new OwnerId(OwnerLookup.uidOf(dependent), work.key());
        boolean cascade = waited && graph.hasDependents(self);
        if (cascade && waitsOnItsDependents(self) && blocksAnOwner(references)) {
            // owners and dependents waiting on each other (a cycle): it stops blocking its owners first, as kube's
            // collector does, so that they need not wait for it
            writes.start(work, () -> edits.unblock(work.key()), () -> later.accept(work));
            return false;
        }
        ResourceType type = kinds.resource(work.key().resource());
        if (type == null) {
            return true; // its type went with its definition, whose deletion takes the object
        }
        DeleteOptions options = new DeleteOptions(self.uid(), Long.toString(dependent.revision()), false,
                cascade ? Propagation.FOREGROUND : ownPolicy(dependent));
        writes.start(work, () -> deletions.delete(type, work.key().namespace(), work.key().name(), options), () -> { });
        return false;
    }

    /**
     * The policy of the collector's finalizer the object carries, else Background, as kube's collector deletes: never
     * its type's default (a Job's would orphan its pods).
     */
    private static Propagation ownPolicy(StoredObject object) {
        if (Finalization.hasFinalizer(object.tree(), Propagation.ORPHAN_FINALIZER)) {
            return Propagation.ORPHAN;
        }
        return Finalization.hasFinalizer(object.tree(), Propagation.FOREGROUND_FINALIZER) ? Propagation.FOREGROUND
                : Propagation.BACKGROUND;
    }

    /** Whether one of the object's own dependents is itself in a foreground deletion. */
    private boolean waitsOnItsDependents(OwnerId self) {
        for (ObjectKey key : graph.dependentsOf(self)) {
            String uid = graph.uidOf(key);
            if (uid != null && deletingDependents.test(new OwnerId(uid, key))) {
                return true;
            }
        }
        return false;
    }

    private static boolean blocksAnOwner(List<OwnerReference> references) {
        return references.stream().anyMatch(OwnerReference::blockOwnerDeletion);
    }

    /** Each dependent lets go of the owner; once none names it, the owner's {@code orphan} finalizer goes. */
    private boolean orphaning(Work work) throws InterruptedException {
        StoredObject owner = store.latest(work.key());
        if (owner == null || !Finalization.heldBy(owner.tree(), Propagation.ORPHAN_FINALIZER)) {
            return true;
        }
        OwnerId self = new OwnerId(OwnerLookup.uidOf(owner), work.key());
        List<ObjectKey> naming = graph.dependentsOf(self);
        if (naming.isEmpty()) {
            writes.start(work, () -> deletions.removeFinalizer(work.key(), Propagation.ORPHAN_FINALIZER), () -> { });
            return false;
        }
        AtomicInteger left = new AtomicInteger(naming.size());
        for (ObjectKey dependent : naming) {
            // once every one has let go, the owner is judged again: then none names it
            writes.start(work, () -> edits.drop(dependent, Set.of(self.uid())), () -> {
                if (left.decrementAndGet() == 0) {
                    later.accept(work);
                }
            });
        }
        return false;
    }

    /** An owner's foreground deletion begins: each of its dependents is judged, then whether it may go. */
    private boolean foregroundOwner(Work work) throws InterruptedException {
        StoredObject owner = foregroundDeleting(work.key());
        if (owner == null) {
            return true;
        }
        for (ObjectKey dependent : graph.dependentsOf(new OwnerId(OwnerLookup.uidOf(owner), work.key()))) {
            enqueue.accept(new Work.Dependent(dependent));
        }
        return foregroundCheck(work);
    }

    /** An owner in a foreground deletion goes once no dependent that is still there blocks it. */
    private boolean foregroundCheck(Work work) throws InterruptedException {
        StoredObject owner = foregroundDeleting(work.key());
        if (owner == null || graph.blocked(new OwnerId(OwnerLookup.uidOf(owner), work.key()))) {
            return true; // the last blocking dependent to go wakes it
        }
        writes.start(work, () -> deletions.removeFinalizer(work.key(), Propagation.FOREGROUND_FINALIZER), () -> { });
        return false;
    }

    private StoredObject foregroundDeleting(ObjectKey key) {
        StoredObject owner = store.latest(key);
        return owner != null && Finalization.heldBy(owner.tree(), Propagation.FOREGROUND_FINALIZER) ? owner : null;
    }
}
