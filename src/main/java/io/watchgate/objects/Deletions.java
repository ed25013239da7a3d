package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.watchgate.crd.CrdSpec;
import io.watchgate.status.ApiException;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ApiExtensionsTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * delete and deletecollection. An object with finalizers is marked (deletionTimestamp) and kept; any other is
 * removed. Deleting a namespace deletes everything in it, and deleting a CustomResourceDefinition every object of
 * its type, one revision per object.
 *
 * <p>As every write, these submit to the store and hold no thread while the disk syncs: each method returns a
 * future that completes once what it wrote counts. What follows a write (a namespace's contents deleted after it
 * is marked, a namespace or definition let go after its last object) goes on on a worker thread, since it lists:
 * never on the log's thread, which completes durable writes and must only sync.
 */
@ApplicationScoped
public class Deletions {

    private static final Logger LOG = Logger.getLogger(Deletions.class);
    /** As kube-apiserver's namespace admission: the server's own namespaces stay. */
    private static final Set<String> PROTECTED_NAMESPACES = Set.of("default", "kube-system");

    private final Store store;
    private final NamespaceLifecycle namespaces;
    private final DefinitionLifecycle definitions;
    private final Clock clock;
    private final Executor workers = Infrastructure.getDefaultWorkerPool();

    Deletions(Store store, NamespaceLifecycle namespaces, DefinitionLifecycle definitions, Clock clock) {
        this.store = store;
        this.namespaces = namespaces;
        this.definitions = definitions;
        this.clock = clock;
    }

    /**
     * Runs on a worker thread: a namespace's or a definition's deletion lists what it deletes.
     *
     * @return the deleted object, or the object as marked for deletion when finalizers hold it, once that counts
     */
    public CompletableFuture<StoredObject> delete(ResourceType type, String namespace, String name,
            DeleteOptions options) {
        ObjectKey key = ObjectReads.key(type, namespace, name);
        if (isNamespaces(type) && PROTECTED_NAMESPACES.contains(name)) {
            throw ApiException.forbidden("", "namespaces", name, "this namespace may not be deleted");
        }
        return Contention.retry(store, type.group(), type.resource(), name, () -> {
            StoredObject current = store.latest(key);
            if (current == null) {
                throw ApiException.notFound(type.group(), type.resource(), name);
            }
            checkPreconditions(type, current, options); // again on each attempt: the object changed
            if (isNamespaces(type)) {
                return deleteNamespace(current, options.dryRun());
            }
            if (ApiExtensionsTypes.isCustomResourceDefinitions(type) && !options.dryRun()) {
                return deleteDefinition(current);
            }
            return deleteOrMark(current, Finalization.afterDeletion(type, current.tree(), options.propagation()),
                    options.dryRun());
        });
    }

    /**
     * Deletes every object the selection matches, each as its own revision and each once the one before counts;
     * objects gone meanwhile are skipped. Runs on a worker thread: it lists.
     *
     * @return what was deleted, once the last deletion counts
     */
    public CompletableFuture<ListResult> deleteCollection(ResourceType type, String namespace, Selection selection,
            DeleteOptions options) {
        KeyRange range = new KeyRange(type.storageResource(), type.namespaced() ? namespace : null);
        List<StoredObject> matching = store.list(range, store.currentRevision(), null, Integer.MAX_VALUE,
                object -> selection.matches(object.tree()), false).items();
        List<StoredObject> deleted = new ArrayList<>(); // added to by one step at a time, each after the one before
        return InOrder.forEach(matching.iterator(), object -> {
            if (isNamespaces(type) && PROTECTED_NAMESPACES.contains(object.key().name())) {
                return CompletableFuture.completedFuture(null);
            }
            return attempt(() -> delete(type, object.key().namespace(), object.key().name(),
                    new DeleteOptions(null, null, options.dryRun(), options.propagation()))).handle((result, failure) -> {
                        if (failure == null) {
                            deleted.add(result);
                        } else if (!(InOrder.unwrapped(failure) instanceof ApiException e && e.code() == 404)) {
                            throw failure instanceof CompletionException c ? c : new CompletionException(failure);
                        }
                        return null;
                    });
        }, workers).thenApply(all -> new ListResult(type, store.currentRevision(), deleted, null, null));
    }

    /**
     * Follows an object's removal: its namespace or its type's definition may have been waiting for it. Call on a
     * worker thread. Never fails: the removal has counted and is what the client is answered; a namespace or a
     * definition not let go now (its own writes lost every race, or the disk refused them) stays Terminating until
     * the next removal in it, or its own deletion again, tries once more.
     */
    CompletableFuture<Void> removed(StoredObject object) {
        CompletableFuture<?> namespace = object.key().namespace().isEmpty() ? CompletableFuture.completedFuture(null)
                : namespaces.finalizeIfDone(object.key().namespace());
        CompletableFuture<?> followUp = !object.key().resource().contains(".") ? namespace // no custom type's object
                : namespace.thenComposeAsync(done -> definitions.finalizeIfDone(object.key().resource()), workers);
        return followUp.handle((done, failure) -> {
            if (failure != null) {
                LOG.warnf("%s/%s/%s was removed, but letting its namespace or definition go failed: %s",
                        object.key().resource(), object.key().namespace(), object.key().name(),
                        InOrder.unwrapped(failure).getMessage());
            }
            return null;
        });
    }

    /**
     * Deletes {@code current}, or marks it deleted when finalizers hold it: its own, or the one the garbage
     * collector needs to orphan its dependents or delete them first. A second deletion of an object marked already
     * may change the collector's finalizer (Background to Foreground, say) or, taking it away, delete it.
     *
     * @throws StoreException.RevisionConflict or KeyNotFound when {@code current} is no longer the newest
     */
    private CompletableFuture<StoredObject> deleteOrMark(StoredObject current, List<String> finalizers,
            boolean dryRun) {
        boolean terminating = Finalization.isTerminating(current.tree());
        if (!finalizers.isEmpty()) {
            if (terminating && finalizers.equals(Finalization.finalizers(current.tree()))) {
                return store.counted(current); // nothing to write, but what it shows may still be on its way to the disk
            }
            ObjectNode marked = current.tree().deepCopy();
            Finalization.setFinalizers(marked, finalizers);
            if (!terminating) {
                Finalization.markDeleted(marked, clock.instant());
                JsonNode generation = marked.path("metadata").path("generation");
                if (generation.asLong(0) > 0) {
                    marked.withObject("/metadata").put("generation", generation.asLong() + 1);
                }
            }
            return dryRun ? CompletableFuture.completedFuture(DryRun.of(current.key(), marked))
                    : store.submit(Mutation.update(current.key(), marked, current.revision()))
                            .thenApply(ChangeEvent::object);
        }
        if (dryRun) {
            return CompletableFuture.completedFuture(current);
        }
        return store.submit(Mutation.delete(current.key(), current.revision())).thenComposeAsync(
                deleted -> removed(deleted.object()).thenApply(done -> deleted.object()), workers);
    }

    /**
     * Takes {@code finalizer} off the object at {@code key}, as the one that set it does once its work is done; the
     * object goes if it was being deleted and nothing else holds it. Retried while the object changes under it.
     *
     * @return the object as written or deleted, or null when it is gone or no longer carries the finalizer
     */
    public CompletableFuture<StoredObject> removeFinalizer(ObjectKey key, String finalizer) {
        return Contention.retry(store, key.group(), key.resource(), key.name(), () -> {
            StoredObject current = store.latest(key);
            if (current == null || !Finalization.finalizers(current.tree()).contains(finalizer)) {
                return CompletableFuture.completedFuture(null);
            }
            ObjectNode updated = current.tree().deepCopy();
            List<String> remaining = Finalization.finalizers(updated);
            remaining.remove(finalizer);
            Finalization.setFinalizers(updated, remaining);
            if (remaining.isEmpty() && Finalization.isTerminating(updated)) {
                return deleteOrMark(current, remaining, false);
            }
            return store.submit(Mutation.update(key, updated, current.revision())).thenApply(ChangeEvent::object);
        });
    }

    /**
     * Marks the namespace Terminating, then (once that counts: every create it admitted counts before it) deletes
     * what is in it, then lets it go if nothing holds it.
     */
    private CompletableFuture<StoredObject> deleteNamespace(StoredObject current, boolean dryRun) {
        String namespace = current.key().name();
        if (dryRun) {
            return CompletableFuture.completedFuture(current);
        }
        CompletableFuture<StoredObject> marked;
        if (Finalization.isTerminating(current.tree())) {
            marked = store.counted(current); // marked already, by a write that may still be on its way to the disk
        } else {
            ObjectNode terminating = current.tree().deepCopy();
            Finalization.markDeleted(terminating, clock.instant());
            NamespaceLifecycle.markTerminating(terminating);
            marked = store.submit(Mutation.update(current.key(), terminating, current.revision()))
                    .thenApply(ChangeEvent::object);
        }
        return marked.thenComposeAsync(terminating -> InOrder.forEach(namespaces.contents(namespace).iterator(),
                        this::deleteContent, workers)
                .thenComposeAsync(all -> namespaces.finalizeIfDone(namespace), workers)
                .thenApply(after -> after != null ? after : terminating), workers);
    }

    /**
     * A definition takes its objects with it: marked Terminating, it refuses new objects; each existing one is
     * deleted (a DELETED event), and the definition goes after the last (at once, unless finalizers hold some).
     */
    private CompletableFuture<StoredObject> deleteDefinition(StoredObject current) {
        return definitions.markTerminating(current).thenComposeAsync(marked -> {
            String resource = CrdSpec.read(marked.tree()).resource();
            return InOrder.forEach(definitions.instances(resource).iterator(), this::deleteContent, workers)
                    .thenComposeAsync(all -> definitions.finalizeIfDone(resource), workers)
                    .thenApply(after -> after != null ? after : marked);
        }, workers);
    }

    /** Deletes one object its namespace or definition takes with it (marks it, if finalizers hold it). */
    private CompletableFuture<?> deleteContent(StoredObject object) {
        ObjectKey key = object.key();
        return Contention.<Object>retry(store, key.group(), key.resource(), key.name(), () -> {
            StoredObject current = store.latest(key);
            if (current == null) {
                return CompletableFuture.completedFuture(null);
            }
            if (Finalization.hasFinalizers(current.tree())) {
                return deleteOrMark(current, Finalization.finalizers(current.tree()), false).thenApply(marked -> marked);
            }
            return store.submit(Mutation.delete(current.key(), current.revision())).thenApply(deleted -> deleted);
        });
    }

    /** A future of what {@code write} returns, or of what it threw before it had one. */
    private static <T> CompletableFuture<T> attempt(Supplier<CompletableFuture<T>> write) {
        try {
            return write.get();
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
    }

    private static void checkPreconditions(ResourceType type, StoredObject current, DeleteOptions options) {
        String name = current.key().name();
        if (options.uid() != null) {
            String uid = current.tree().path("metadata").path("uid").asText("");
            if (!options.uid().equals(uid)) {
                throw ApiException.conflict(type.group(), type.resource(), name, "Precondition failed: UID in "
                        + "precondition: " + options.uid() + ", UID in object meta: " + uid);
            }
        }
        if (options.resourceVersion() != null
                && !options.resourceVersion().equals(Long.toString(current.revision()))) {
            throw ApiException.conflict(type.group(), type.resource(), name, "Precondition failed: "
                    + "ResourceVersion in precondition: " + options.resourceVersion()
                    + ", ResourceVersion in object meta: " + current.revision());
        }
    }

    static boolean isNamespaces(ResourceType type) {
        return type.group().isEmpty() && type.plural().equals("namespaces");
    }
}
