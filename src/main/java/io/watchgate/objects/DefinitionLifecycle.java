package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * CustomResourceDefinitions as kube-apiserver runs them: deleting one marks it Terminating and gives it the
 * cleanup finalizer; its objects are then deleted, new ones are refused, and the definition goes once the last
 * object has (finalizers on objects hold it, as they hold a namespace).
 */
@ApplicationScoped
public class DefinitionLifecycle {

    static final String CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

    private final Store store;
    private final ResourceTypes types;
    private final Clock clock;

    DefinitionLifecycle(Store store, ResourceTypes types, Clock clock) {
        this.store = store;
        this.types = types;
        this.clock = clock;
    }

    /**
     * 405 while the type's definition terminates, 404 once it has gone.
     *
     * @return the definition's revision, to guard the create with (0 for built-in types)
     */
    long requireAcceptsInstances(ResourceType type, String name) {
        if (types.isBuiltIn(type)) {
            return 0;
        }
        StoredObject definition = store.latest(key(type.resource()));
        if (definition == null) {
            throw ApiException.notFound(type.group(), type.resource(), name);
        }
        if (Finalization.isTerminating(definition.tree())) {
            throw new ApiException(405, "MethodNotAllowed", "create not allowed while custom resource definition "
                    + "is terminating");
        }
        return definition.revision();
    }

    /**
     * Marks a definition deleted (once): deletionTimestamp, the cleanup finalizer and a Terminating condition.
     *
     * @return the definition as marked, once the mark counts
     * @throws StoreException.RevisionConflict when it changed since {@code current} was read
     */
    CompletableFuture<StoredObject> markTerminating(StoredObject current) {
        if (Finalization.isTerminating(current.tree()) && holdsCleanup(current.tree())) {
            return store.counted(current); // marked already, by a write that may still be on its way to the disk
        }
        ObjectNode marked = current.tree().deepCopy();
        if (!Finalization.isTerminating(marked)) {
            Finalization.markDeleted(marked, clock.instant());
        }
        marked.withObject("/metadata").withArray("finalizers").add(CLEANUP_FINALIZER);
        ArrayNode conditions = marked.withObject("/status").withArray("conditions");
        for (int i = conditions.size() - 1; i >= 0; i--) {
            if (conditions.get(i).path("type").asText().equals("Terminating")) {
                conditions.remove(i);
            }
        }
        conditions.addObject().put("type", "Terminating").put("status", "True")
                .put("lastTransitionTime", ServerFields.timestamp(clock.instant()))
                .put("reason", "InstanceDeletionInProgress").put("message", "CustomResource deletion is in progress");
        return store.submit(Mutation.update(current.key(), marked, current.revision())).thenApply(ChangeEvent::object);
    }

    /** Every object of the definition's type, in every namespace, as of now. */
    List<StoredObject> instances(String definition) {
        return store.list(KeyRange.allOf(definition), store.currentRevision(), null, Integer.MAX_VALUE,
                object -> true, false).items();
    }

    private boolean hasInstances(String definition) {
        return !store.list(KeyRange.allOf(definition), store.currentRevision(), null, 1, object -> true, false)
                .items().isEmpty();
    }

    /**
     * Lets a terminating definition go once none of its objects is left: drops the cleanup finalizer, and the
     * definition with it unless other finalizers still hold it.
     *
     * @param resource the group-qualified plural, which is the definition's name
     * @return the definition as it is now, null when it is gone or never was; once what was written counts
     */
    CompletableFuture<StoredObject> finalizeIfDone(String resource) {
        return Contention.retry(store, ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.group(),
                ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.resource(), resource, () -> {
            StoredObject definition = store.latest(key(resource));
            if (definition == null || !Finalization.isTerminating(definition.tree())
                    || !holdsCleanup(definition.tree()) || hasInstances(resource)) {
                return CompletableFuture.completedFuture(definition);
            }
            ObjectNode released = definition.tree().deepCopy();
            ArrayNode finalizers = released.withObject("/metadata").withArray("finalizers");
            for (int i = finalizers.size() - 1; i >= 0; i--) {
                if (finalizers.get(i).asText().equals(CLEANUP_FINALIZER)) {
                    finalizers.remove(i);
                }
            }
            Mutation release = finalizers.isEmpty() ? Mutation.delete(definition.key(), definition.revision())
                    : Mutation.update(definition.key(), released, definition.revision());
            return store.submit(release).thenApply(ChangeEvent::object);
        });
    }

    private static boolean holdsCleanup(ObjectNode definition) {
        for (JsonNode finalizer : definition.path("metadata").path("finalizers")) {
            if (finalizer.asText().equals(CLEANUP_FINALIZER)) {
                return true;
            }
        }
        return false;
    }

    static ObjectKey key(String resource) {
        return new ObjectKey(ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.resource(), "", resource);
    }
}
