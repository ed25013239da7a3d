package io.watchgate.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Namespaces as Kubernetes runs them: content may only be created in an existing, active namespace; a deleted
 * namespace turns Terminating, and goes once it is empty and has no finalizers.
 */
@ApplicationScoped
public class NamespaceLifecycle {

    private final Store store;
    private final ResourceTypes types;

    NamespaceLifecycle(Store store, ResourceTypes types) {
        this.store = store;
        this.types = types;
    }

    /**
     * 404 when the namespace does not exist, 403 while it terminates.
     *
     * @return the namespace's revision, to guard the create with (0 for cluster-scoped types)
     */
    public long requireAcceptsContent(ResourceType type, String namespace, String name) {
        if (!type.namespaced()) {
            return 0;
        }
        StoredObject ns = store.latest(key(namespace));
        if (ns == null) {
            throw ApiException.notFound("", "namespaces", namespace);
        }
        if (Finalization.isTerminating(ns.tree())) {
            throw ApiException.forbidden(type.group(), type.resource(), name, "unable to create new content in "
                    + "namespace " + namespace + " because it is being terminated");
        }
        return ns.revision();
    }

    /** The namespace's objects of every namespaced type, as of now. */
    List<StoredObject> contents(String namespace) {
        List<StoredObject> contents = new ArrayList<>();
        long revision = store.currentRevision();
        for (ResourceType type : types.all()) {
            if (type.namespaced() && !type.sharesStorage()) { // another type's objects: listed with it
                contents.addAll(store.list(KeyRange.inNamespace(type.resource(), namespace), revision, null,
                        Integer.MAX_VALUE, object -> true, false).items());
            }
        }
        return contents;
    }

    /** Whether anything of any namespaced type is left in the namespace: one key per type at most. */
    private boolean hasContents(String namespace) {
        long revision = store.currentRevision();
        for (ResourceType type : types.all()) {
            if (type.namespaced() && !type.sharesStorage() && !store.list(KeyRange.inNamespace(type.resource(), namespace), revision, null, 1,
                    object -> true, false).items().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Removes a terminating namespace once nothing is left in it and nothing holds it. Lists, so it runs on a worker
     * thread, never on the event loop nor the log's thread.
     *
     * @return the namespace as it is now (null once gone), when the removal (if any) counts
     */
    CompletableFuture<StoredObject> finalizeIfDone(String namespace) {
        return Contention.retry(store, "", "namespaces", namespace, () -> {
            StoredObject ns = store.latest(key(namespace));
            if (ns == null || !Finalization.isTerminating(ns.tree()) || Finalization.hasFinalizers(ns.tree())
                    || hasContents(namespace)) {
                return CompletableFuture.completedFuture(ns);
            }
            return store.submit(Mutation.delete(ns.key(), ns.revision())).thenApply(ChangeEvent::object);
        });
    }

    static void markTerminating(ObjectNode namespace) {
        namespace.withObject("/status").put("phase", "Terminating");
    }

    static ObjectKey key(String namespace) {
        return new ObjectKey("namespaces", "", namespace);
    }
}
