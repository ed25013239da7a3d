package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.managedfields.ApplyConflict;
import io.watchgate.managedfields.FieldTracking;
import io.watchgate.managedfields.StructureError;
import io.watchgate.managedfields.Writer;
import io.watchgate.status.ApiException;
import io.watchgate.status.ApiException.Details;
import io.watchgate.status.Cause;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Server-side apply: a PATCH of {@code application/apply-patch+yaml}. The configuration is merged into the object as
 * it is now (or creates it), its manager's fields recorded and checked against the other managers' ({@link
 * FieldTracking}), and the result goes the way of every update: defaults, validation, the resourceVersion
 * precondition, and no write at all when nothing changed.
 */
@ApplicationScoped
public class ObjectApplies {

    /** An apply that finds no object creates one; when another client creates it first, the apply goes again. */
    private static final int CREATE_RACES = 3;

    private final ObjectWrites writes;
    private final Store store;
    private final FieldTracking tracking;

    ObjectApplies(ObjectWrites writes, Store store, FieldTracking tracking) {
        this.writes = writes;
        this.store = store;
        this.tracking = tracking;
    }

    /**
     * The options of one apply: its manager, force, dry run, and the check that the client may create, asked when
     * (and each time) the apply finds no object, as kube-apiserver asks it.
     */
    public record Options(Writer writer, boolean force, boolean dryRun, Runnable authorizeCreate) {
    }

    /** What an apply stored (or would have, in a dry run), and whether that created the object. */
    public record Applied(StoredObject object, boolean created) {
    }

    /**
     * @param config  the applied configuration, which this call now owns
     * @param inspect sees the object to be stored on each attempt (admission), and may refuse it
     */
    public CompletionStage<Applied> apply(ResourceType type, String namespace, String name, JsonNode config,
            Options options, boolean statusOnly, Consumer<ObjectNode> inspect) {
        ObjectNode applied = checked(type, namespace, name, config);
        StatusWrites.restrictApplied(type, applied, statusOnly);
        return apply(type, namespace, name, applied, options, statusOnly, inspect, CREATE_RACES);
    }

    private CompletionStage<Applied> apply(ResourceType type, String namespace, String name, ObjectNode config,
            Options options, boolean statusOnly, Consumer<ObjectNode> inspect, int createRaces) {
        long expected = BodyRules.expectedRevision(type, config);
        return Contention.retry(store, type.group(), type.resource(), name, () -> {
            StoredObject current = store.latest(ObjectReads.key(type, namespace, name));
            if (current == null) {
                if (statusOnly) {
                    throw ApiException.notFound(type.group(), type.resource(), name);
                }
                return create(type, namespace, name, config, options, inspect, createRaces);
            }
            if (expected != 0 && expected != current.revision()) {
                throw ApiException.conflict(type.group(), type.resource(), name, "the object has been modified; "
                        + "please apply your changes to the latest version and try again");
            }
            ObjectNode merged = merged(type, type.shown(current.tree()), config, options, statusOnly);
            inspect.accept(merged);
            return writes.commitReplacement(type, current, merged, options.dryRun(), statusOnly, null)
                    .thenApply(updated -> new Applied(updated, false));
        });
    }

    private CompletionStage<Applied> create(ResourceType type, String namespace, String name, ObjectNode config,
            Options options, Consumer<ObjectNode> inspect, int createRaces) {
        options.authorizeCreate().run();
        String uid = config.path("metadata").path("uid").asText("");
        if (!uid.isEmpty()) {
            throw ApiException.conflict(type.group(), type.resource(), name, "uid mismatch: the provided object "
                    + "specified uid " + uid + ", and no existing object was found");
        }
        ObjectNode toCreate = config.deepCopy();
        toCreate.withObject("/metadata").remove("resourceVersion"); // nothing to be at: kube-apiserver drops it
        ObjectNode object = merged(type, null, toCreate, options, false);
        inspect.accept(object);
        CompletableFuture<Applied> created;
        try {
            created = writes.create(type, namespace, object, options.dryRun(), null)
                    .thenApply(stored -> new Applied(stored, true)).toCompletableFuture();
        } catch (ApiException refusal) {
            created = CompletableFuture.failedFuture(refusal); // a name taken is found at once, or later: alike
        }
        return created.exceptionallyCompose(failure -> {
            if (createRaces > 1 && InOrder.unwrapped(failure) instanceof ApiException refusal
                    && refusal.code() == 409 && "AlreadyExists".equals(refusal.reason())) {
                return apply(type, namespace, name, config, options, false, inspect, createRaces - 1);
            }
            return CompletableFuture.failedFuture(failure);
        });
    }

    private ObjectNode merged(ResourceType type, ObjectNode live, ObjectNode config, Options options,
            boolean statusOnly) {
        try {
            return tracking.applied(type, live, config, statusOnly ? options.writer().through("status")
                    : options.writer(), options.force());
        } catch (ApplyConflict conflict) {
            List<Cause> causes = conflict.conflicts().stream().map(c -> new Cause("FieldManagerConflict",
                    "conflict with " + c.owner().printed(), c.field())).toList();
            throw new ApiException(409, "Conflict", conflict.message(), new Details(null, null, null, causes), null,
                    null);
        } catch (StructureError e) {
            String name = config.path("metadata").path("name").asText("");
            String namespace = config.path("metadata").path("namespace").asText("");
            throw ApiException.badRequest("failed to create typed patch object (" + (namespace.isEmpty() ? ""
                    : namespace + "/") + name + "; " + groupVersionKind(type.apiVersion(), type.kind()) + "): "
                    + e.getMessage());
        }
    }

    /** What kube-apiserver checks of an applied configuration before it reads the object. */
    private static ObjectNode checked(ResourceType type, String namespace, String name, JsonNode config) {
        if (config == null || !config.isObject()) {
            throw ApiException.badRequest("error decoding patch: an applied configuration is a JSON or YAML object");
        }
        ObjectNode object = (ObjectNode) config;
        String apiVersion = object.path("apiVersion").isTextual() ? object.get("apiVersion").textValue() : "";
        String kind = object.path("kind").isTextual() ? object.get("kind").textValue() : "";
        if (!apiVersion.equals(type.apiVersion()) || !kind.equals(type.kind())) {
            throw ApiException.badRequest("invalid object type: " + groupVersionKind(apiVersion, kind));
        }
        JsonNode managedFields = object.path("metadata").get("managedFields");
        if (managedFields != null && !managedFields.isNull()) {
            throw ApiException.badRequest("metadata.managedFields must be nil");
        }
        BodyRules.conform(type, object, namespace, name);
        return object;
    }

    /** As Go prints a GroupVersionKind: {@code apps/v1, Kind=Deployment}, {@code /v1, Kind=ConfigMap}. */
    private static String groupVersionKind(String apiVersion, String kind) {
        return (apiVersion.contains("/") ? apiVersion : "/" + apiVersion) + ", Kind=" + kind;
    }
}
