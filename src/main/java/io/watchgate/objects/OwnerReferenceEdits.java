package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.managedfields.FieldTracking;
import io.watchgate.managedfields.Writer;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * The garbage collector's edits of an object's owner references, as kube's collector patches them: references to
 * owners gone or orphaning taken off, and references made non-blocking where foreground deletions would wait on each
 * other. Each reads the object anew when it changed meanwhile, and writes nothing when nothing is left to change.
 */
@ApplicationScoped
public class OwnerReferenceEdits {

    /** Whom managedFields names for these edits, as kube's collector is named by its own client. */
    static final Writer COLLECTOR = new Writer("watchgate-garbage-collector", "");

    private final Store store;
    private final ResourceTypes types;
    private final FieldTracking tracking;

    OwnerReferenceEdits(Store store, ResourceTypes types, FieldTracking tracking) {
        this.store = store;
        this.types = types;
        this.tracking = tracking;
    }

    /**
     * Takes the references to {@code uids} off the object at {@code key}.
     *
     * @return the object as written, or null when it is gone or names none of them
     */
    public CompletableFuture<StoredObject> drop(ObjectKey key, Set<String> uids) {
        return edit(key, references -> {
            ArrayNode kept = references.arrayNode();
            references.forEach(reference -> {
                if (!uids.contains(reference.path("uid").asText(""))) {
                    kept.add(reference);
                }
            });
            return kept;
        });
    }

    /**
     * Makes every reference of the object at {@code key} non-blocking: its owners then no longer wait for it.
     *
     * @return the object as written, or null when it is gone or blocks no owner
     */
    public CompletableFuture<StoredObject> unblock(ObjectKey key) {
        return edit(key, references -> {
            ArrayNode unblocked = references.deepCopy();
            unblocked.forEach(reference -> {
                if (reference.path("blockOwnerDeletion").asBoolean(false)) {
                    ((ObjectNode) reference).put("blockOwnerDeletion", false);
                }
            });
            return unblocked;
        });
    }

    private CompletableFuture<StoredObject> edit(ObjectKey key, UnaryOperator<ArrayNode> change) {
        return Contention.retry(store, key.group(), key.resource(), key.name(), () -> {
            StoredObject current = store.latest(key);
            JsonNode references = current == null ? null : current.tree().path("metadata").get("ownerReferences");
            if (!(references instanceof ArrayNode list)) {
                return CompletableFuture.completedFuture(null);
            }
            ArrayNode changed = change.apply(list);
            if (changed.equals(list)) {
                return CompletableFuture.completedFuture(null);
            }
            ObjectNode updated = current.tree().deepCopy();
            if (changed.isEmpty()) {
                updated.withObject("/metadata").remove("ownerReferences");
            } else {
                updated.withObject("/metadata").set("ownerReferences", changed);
            }
            // a reference taken off is taken from whoever owned it, as kube's collector's patch takes it
            typeOf(key, current).ifPresent(type -> tracking.updated(type, current.tree(), updated, COLLECTOR));
            return store.submit(Mutation.update(key, updated, current.revision())).thenApply(ChangeEvent::object);
        });
    }

    /** The served type of the object at {@code key}, at the version it is stored in; none when not served now. */
    private Optional<ResourceType> typeOf(ObjectKey key, StoredObject current) {
        String group = key.group();
        String plural = group.isEmpty() ? key.resource()
                : key.resource().substring(0, key.resource().length() - group.length() - 1);
        String apiVersion = current.tree().path("apiVersion").asText("");
        return types.find(group, apiVersion.substring(apiVersion.indexOf('/') + 1), plural);
    }
}
