package io.watchgate.objects;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.crd.CrdSpec;
import io.watchgate.schema.ApiExtensionsTypes;
import io.watchgate.schema.ResourceType;
import io.watchgate.status.ApiException;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * delete and deletecollection. An object with finalizers is marked (deletionTimestamp) and kept; any other is
 * removed. Deleting a namespace deletes everything in it, and deleting a CustomResourceDefinition every object of
 * its type, one revision per object.
 */
@ApplicationScoped
public class Deletions {

    private final Store store;
    private final NamespaceLifecycle namespaces;
    private final DefinitionLifecycle definitions;
    private final Clock clock;

    Deletions(Store store, NamespaceLifecycle namespaces, DefinitionLifecycle definitions, Clock clock) {
        this.store = store;
        this.namespaces = namespaces;
        this.definitions = definitions;
        this.clock = clock;
    }

    /** @return the deleted object, or the object as marked for deletion when finalizers hold it */
    public StoredObject delete(ResourceType type, String namespace, String name, DeleteOptions options) {
        ObjectKey key = ObjectReads.key(type, namespace, name);
        if (isNamespaces(type) && name.equals("default")) {
            throw ApiException.forbidden("", "namespaces", name, "this namespace may not be deleted");
        }
        while (true) {
            StoredObject current = store.latest(key);
            if (current == null) {
                throw ApiException.notFound(type.group(), type.resource(), name);
            }
            checkPreconditions(type, current, options);
            try {
                if (isNamespaces(type)) {
                    return deleteNamespace(current, options.dryRun());
                }
                if (ApiExtensionsTypes.isCustomResourceDefinitions(type) && !options.dryRun()) {
                    return deleteDefinition(current);
                }
                return deleteOrMark(current, options.dryRun());
            } catch (StoreException.RevisionConflict | StoreException.KeyNotFound e) {
                // changed since we read it: read again, and check the preconditions again
            }
        }
    }

    /** Deletes every object the selection matches, each as its own revision; returns what was deleted. */
    public ListResult deleteCollection(ResourceType type, String namespace, Selection selection,
            boolean dryRun) {
        KeyRange range = new KeyRange(type.resource(), type.namespaced() ? namespace : null);
        List<StoredObject> matching = store.list(range, store.currentRevision(), null, Integer.MAX_VALUE,
                object -> selection.matches(object.tree()), false).items();
        List<StoredObject> deleted = new ArrayList<>();
        for (StoredObject object : matching) {
            if (isNamespaces(type) && object.key().name().equals("default")) {
                continue;
            }
            try {
                deleted.add(delete(type, object.key().namespace(), object.key().name(),
                        new DeleteOptions(null, null, dryRun)));
            } catch (ApiException e) {
                if (e.code() != 404) {
                    throw e;
                }
            }
        }
        return new ListResult(type, store.currentRevision(), deleted, null, null);
    }

    /** Called after an object is removed: its namespace or its type's definition may have been waiting for it. */
    void removed(StoredObject object) {
        if (!object.key().namespace().isEmpty()) {
            namespaces.finalizeIfDone(object.key().namespace());
        }
        if (object.key().resource().contains(".")) { // a group-qualified resource: maybe a custom type
            definitions.finalizeIfDone(object.key().resource());
        }
    }

    private StoredObject deleteOrMark(StoredObject current, boolean dryRun) {
        if (Finalization.hasFinalizers(current.tree())) {
            if (Finalization.isTerminating(current.tree())) {
                return Store.await(store.counted(current)); // nothing to write, but what it shows may still be on its way to the disk
            }
            ObjectNode marked = current.tree().deepCopy();
            Finalization.markDeleted(marked, clock.instant());
            return dryRun ? DryRun.of(current.key(), marked)
                    : store.commit(Mutation.update(current.key(), marked, current.revision())).object();
        }
        if (dryRun) {
            return current;
        }
        StoredObject deleted = store.commit(Mutation.delete(current.key(), current.revision())).object();
        removed(deleted);
        return deleted;
    }

    private StoredObject deleteNamespace(StoredObject current, boolean dryRun) {
        String namespace = current.key().name();
        if (dryRun) {
            return current;
        }
        if (!Finalization.isTerminating(current.tree())) {
            ObjectNode marked = current.tree().deepCopy();
            Finalization.markDeleted(marked, clock.instant());
            NamespaceLifecycle.markTerminating(marked);
            current = store.commit(Mutation.update(current.key(), marked, current.revision())).object();
        }
        for (StoredObject object : namespaces.contents(namespace)) {
            deleteContent(object);
        }
        StoredObject after = namespaces.finalizeIfDone(namespace);
        return after != null ? after : current;
    }

    /**
     * A definition takes its objects with it: marked Terminating, it refuses new objects; each existing one is
     * deleted (a DELETED event), and the definition goes after the last (at once, unless finalizers hold some).
     */
    private StoredObject deleteDefinition(StoredObject current) {
        StoredObject marked = definitions.markTerminating(current);
        String resource = CrdSpec.parse(marked.tree()).resource();
        for (StoredObject object : definitions.instances(resource)) {
            deleteContent(object);
        }
        StoredObject after = definitions.finalizeIfDone(resource);
        return after != null ? after : marked;
    }

    private void deleteContent(StoredObject object) {
        while (true) {
            StoredObject current = store.latest(object.key());
            if (current == null) {
                return;
            }
            try {
                if (Finalization.hasFinalizers(current.tree())) {
                    deleteOrMark(current, false);
                } else {
                    store.commit(Mutation.delete(current.key(), current.revision()));
                }
                return;
            } catch (StoreException.RevisionConflict | StoreException.KeyNotFound e) {
                // changed since we read it: read again
            }
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
