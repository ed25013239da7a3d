package io.watchgate.garbagecollector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.objects.DeleteOptions;
import io.watchgate.objects.Deletions;
import io.watchgate.objects.Propagation;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What the collector does about one piece of work, judged from the newest state of the store, as
 * kube-controller-manager's collector judges it from live reads: every decision is taken again from scratch each
 * time, so work interrupted (a failed write, a restart, another replica taking over) is simply judged again.
 */
final class CollectorActions {

    private final Store store;
    private final Deletions deletions;
    private final ResourceTypes types;
    private final OwnerLookup owners;
    private final OwnerGraph graph;
    private final CollectorWrites writes;
    private final Consumer<Work> enqueue;

    CollectorActions(Store store, Deletions deletions, ResourceTypes types, OwnerGraph graph, CollectorWrites writes,
            Consumer<Work> enqueue) {
        this.store = store;
        this.deletions = deletions;
        this.types = types;
        this.owners = new OwnerLookup(types, store);
        this.graph = graph;
        this.writes = writes;
        this.enqueue = enqueue;
    }

    void judge(Work work) throws InterruptedException {
        if (work instanceof Work.Dependent dependent) {
            dependent(dependent);
        } else if (work instanceof Work.OrphaningOwner owner) {
            orphaning(owner);
        } else if (work instanceof Work.ForegroundOwner owner) {
            foreground(owner);
        }
    }

    /**
     * A dependent stays while one owner holds it, losing its references to owners gone or waiting for it; with none
     * left it is deleted: in the foreground when an owner waits and it has dependents of its own (they go first),
     * else as its own finalizer or its type says (Background).
     */
    private void dependent(Work.Dependent work) throws InterruptedException {
        StoredObject dependent = store.latest(work.key());
        if (dependent == null || Lifecycle.isTerminating(dependent)) {
            return; // gone, or going: a foreground owner waits for its DELETED event
        }
        List<OwnerReference> references = OwnerReference.of(dependent.tree());
        if (references.isEmpty()) {
            return;
        }
        boolean held = false;
        boolean waited = false;
        List<String> letGo = new ArrayList<>();
        for (OwnerReference reference : references) {
            switch (owners.stateOf(reference, work.key())) {
                case SOLID, UNRESOLVABLE -> held = true;
                case WAITING -> {
                    waited = true;
                    letGo.add(reference.uid());
                }
                case DANGLING -> letGo.add(reference.uid());
            }
        }
        if (held) {
            if (!letGo.isEmpty()) {
                writes.start(work, () -> dropReferences(dependent, Set.copyOf(letGo)), () -> { });
            }
            return;
        }
        Propagation propagation = waited && graph.hasDependents(OwnerLookup.uidOf(dependent)) ? Propagation.FOREGROUND
                : null; // null: its own finalizer's policy, else its type's default
        ResourceType type = typeOf(work.key());
        if (type == null) {
            return; // its type went with its definition, and the definition's deletion takes the object
        }
        DeleteOptions options = new DeleteOptions(OwnerLookup.uidOf(dependent), Long.toString(dependent.revision()),
                false, propagation);
        writes.start(work, () -> deletions.delete(type, work.key().namespace(), work.key().name(), options), () -> { });
    }

    /** Each dependent lets go of the owner; once none names it, the owner's {@code orphan} finalizer goes. */
    private void orphaning(Work.OrphaningOwner work) throws InterruptedException {
        StoredObject owner = store.latest(work.key());
        if (owner == null || !Lifecycle.isTerminating(owner) || !Lifecycle.hasFinalizer(owner, Lifecycle.ORPHAN)) {
            return;
        }
        String uid = OwnerLookup.uidOf(owner);
        List<StoredObject> naming = namingOwner(uid);
        if (naming.isEmpty()) {
            writes.start(work, () -> deletions.removeFinalizer(work.key(), Lifecycle.ORPHAN), () -> { });
            return;
        }
        for (StoredObject dependent : naming) {
            // once each has let go, the owner is judged again: then none names it
            writes.start(work, () -> dropReferences(dependent, Set.of(uid)), () -> enqueue.accept(work));
        }
    }

    /**
     * Every dependent is judged (each one no other owner holds goes); the owner's {@code foregroundDeletion}
     * finalizer goes once no dependent that blocks its deletion is left, its DELETED event counted.
     */
    private void foreground(Work.ForegroundOwner work) throws InterruptedException {
        StoredObject owner = store.latest(work.key());
        if (owner == null || !Lifecycle.isTerminating(owner) || !Lifecycle.hasFinalizer(owner, Lifecycle.FOREGROUND)) {
            return;
        }
        String uid = OwnerLookup.uidOf(owner);
        boolean blocked = false;
        for (StoredObject dependent : namingOwner(uid)) {
            for (OwnerReference reference : OwnerReference.of(dependent.tree())) {
                blocked |= reference.uid().equals(uid) && reference.blockOwnerDeletion();
            }
            enqueue.accept(new Work.Dependent(dependent.key()));
        }
        if (!blocked) {
            writes.start(work, () -> deletions.removeFinalizer(work.key(), Lifecycle.FOREGROUND), () -> { });
        }
    }

    /** The dependents, as stored now, that still name {@code owner}. */
    private List<StoredObject> namingOwner(String owner) {
        List<StoredObject> naming = new ArrayList<>();
        for (ObjectKey key : graph.dependentsOf(owner)) {
            StoredObject dependent = store.latest(key);
            if (dependent != null && OwnerReference.of(dependent.tree()).stream().anyMatch(r -> r.uid().equals(owner))) {
                naming.add(dependent);
            }
        }
        return naming;
    }

    /** Takes the references to {@code uids} off {@code dependent}, at the revision judged. */
    private CompletableFuture<ChangeEvent> dropReferences(StoredObject dependent, Set<String> uids) {
        ObjectNode updated = dependent.tree().deepCopy();
        ObjectNode metadata = updated.withObject("/metadata");
        ArrayNode kept = metadata.arrayNode();
        for (JsonNode reference : metadata.path("ownerReferences")) {
            if (!uids.contains(reference.path("uid").asText(""))) {
                kept.add(reference);
            }
        }
        if (kept.isEmpty()) {
            metadata.remove("ownerReferences");
        } else {
            metadata.set("ownerReferences", kept);
        }
        return store.submit(Mutation.update(dependent.key(), updated, dependent.revision()));
    }

    private ResourceType typeOf(ObjectKey key) {
        return types.all().stream().filter(type -> type.resource().equals(key.resource())).findFirst().orElse(null);
    }
}
