package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.managedfields.FieldTracking;
import io.watchgate.managedfields.Writer;
import io.watchgate.patch.PatchType;
import io.watchgate.patch.Patcher;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.store.StoreException;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import io.watchgate.validation.JsonShape;
import io.watchgate.validation.ObjectValidator;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * create, update and patch. Each write reads the current object, computes the new one and commits it on the
 * condition that the object is still at the revision read; when another writer got there first, a write the
 * client did not pin to a resourceVersion is computed again (a bounded number of times: {@link Contention}), and a
 * pinned one answers 409 Conflict.
 *
 * <p>None of this blocks, so the HTTP API runs small writes on the event loop (large ones, which take long
 * without blocking, on a worker): conflicts show before the store takes the
 * write, and what the caller gets is a future that completes once the write counts (after the log's sync in
 * durable mode). The rare writes that set off further writes (the last finalizer of an object or a namespace
 * going) make those on a worker thread, after their own commit.
 */
@ApplicationScoped
public class ObjectWrites {

    /** kube-apiserver gives generateName this many tries to find a free name. */
    private static final int GENERATE_NAME_ATTEMPTS = 8;

    private final Store store;
    private final ObjectValidator validator;
    private final Patcher patcher;
    private final NamespaceLifecycle namespaces;
    private final DefinitionLifecycle definitions;
    private final Deletions deletions;
    private final Clock clock;
    private final ObjectLimits limits;
    private final CustomResourceTypes customResources;
    /** Core objects are typed as in Kubernetes: checked and pruned against their protobuf messages. */
    private final ProtobufObjects protobuf;
    private final FieldTracking tracking;

    ObjectWrites(Store store, ObjectValidator validator, Patcher patcher, NamespaceLifecycle namespaces,
            DefinitionLifecycle definitions, Deletions deletions, Clock clock, ObjectLimits limits, CustomResourceTypes customResources,
            ProtobufObjects protobuf, FieldTracking tracking) {
        this.protobuf = protobuf;
        this.tracking = tracking;
        this.definitions = definitions;
        this.limits = limits;
        this.customResources = customResources;
        this.store = store;
        this.validator = validator;
        this.patcher = patcher;
        this.namespaces = namespaces;
        this.deletions = deletions;
        this.clock = clock;
    }

    /** A create the server makes of its own accord. */
    public CompletionStage<StoredObject> create(ResourceType type, String namespace, JsonNode body, boolean dryRun) {
        return create(type, namespace, body, dryRun, Writer.SERVER);
    }

    /**
     * @param body   the request body, which this call now owns
     * @param writer whom managedFields records as the creator; null when an apply has recorded its manager already
     */
    public CompletionStage<StoredObject> create(ResourceType type, String namespace, JsonNode body, boolean dryRun,
            Writer writer) {
        ObjectNode object = BodyRules.requireObject(body, type);
        BodyRules.conform(type, object, namespace, null);
        ObjectNode metadata = object.withObject("/metadata");
        String name = metadata.path("name").asText("");
        String generateName = metadata.path("generateName").asText("");
        if (name.isEmpty() && generateName.isEmpty()) {
            throw ApiException.invalid(type.group(), type.kind(), "", List.of(
                    Cause.required("metadata.name", "name or generateName is required")));
        }
        boolean generated = name.isEmpty();
        if (generated) {
            validator.validateGenerateName(type, generateName);
        }
        if (type.subresources().status()) {
            object.remove("status"); // set through the status subresource only
        }
        ServerFields.initialize(object, clock.instant());
        // typed first, as kube decodes before it defaults: the defaults then meet fields of their declared types
        protobuf.conform(type, object);
        TypeDefaults.onCreate(type, object, clock.instant());
        if (writer != null) {
            tracking.created(type, object, writer);
        }
        // the namespace or the definition may change between the check and the write (the create is guarded by
        // their revisions): then it is checked again
        String given = name;
        return Contention.retryOnGuard(store, type.group(), type.resource(), generated ? generateName : name,
                () -> createAttempt(type, namespace, object, given, generateName, dryRun));
    }

    /**
     * What the server creates at start, before the first request is taken, waiting until it counts: unless it
     * exists. Another replica that created it meanwhile (etcd mode, replicas starting together) is as good.
     *
     * @return whether this call created it
     */
    public boolean createAtStart(ResourceType type, String namespace, ObjectNode object) {
        try {
            create(type, namespace, object, false).toCompletableFuture().join();
            return true;
        } catch (CompletionException e) {
            if (InOrder.unwrapped(e) instanceof ApiException refusal && isAlreadyExists(refusal)) {
                return false;
            }
            throw e;
        } catch (ApiException e) {
            if (isAlreadyExists(e)) {
                return false;
            }
            throw e;
        }
    }

    private static boolean isAlreadyExists(ApiException e) {
        return e.code() == 409 && "AlreadyExists".equals(e.reason());
    }

    /**
     * One create, against the namespace and the definition as they are now; a generated name may be taken (as
     * kube-apiserver, a few tries).
     */
    private CompletionStage<StoredObject> createAttempt(ResourceType type, String namespace, ObjectNode unnamed,
            String given, String generateName, boolean dryRun) {
        boolean generated = given.isEmpty();
        String name = given;
        for (int nameAttempts = 1;; nameAttempts++) {
            ObjectNode object = generated ? unnamed.deepCopy() : unnamed; // what the name fills in is filled afresh
            if (generated) {
                name = NameGenerator.generate(generateName);
                object.withObject("/metadata").put("name", name);
            }
            TypeDefaults.onNamed(type, object);
            long namespaceRevision = namespaces.requireAcceptsContent(type, namespace, name);
            long definitionRevision = definitions.requireAcceptsInstances(type, name);
            validator.validate(type, object);
            customResources.conform(type, object);
            requireWithinLimit(object); // checked as kube's storage checks it, after validation: managedFields count
            ObjectKey key = ObjectReads.key(type, namespace, name);
            Mutation create = Mutation.create(key, type.stored(object));
            if (type.namespaced()) {
                create = create.guardedBy(NamespaceLifecycle.key(namespace), namespaceRevision);
            }
            if (definitionRevision != 0) {
                // a definition being deleted lists its objects once: none may slip in after that
                create = create.guardedBy(DefinitionLifecycle.key(type.resource()), definitionRevision);
            }
            try {
                if (dryRun) {
                    if (store.latest(key) != null) {
                        throw new StoreException.KeyExists(key);
                    }
                    return CompletableFuture.completedFuture(DryRun.of(key, object));
                }
                String taken = name;
                // another replica may take the name first: etcd says so through the future
                return store.submit(create).thenApply(ChangeEvent::object).exceptionally(failure -> {
                    if (InOrder.unwrapped(failure) instanceof StoreException.KeyExists) {
                        throw ApiException.alreadyExists(type.group(), type.resource(), taken);
                    }
                    throw failure instanceof CompletionException c ? c : new CompletionException(failure);
                });
            } catch (StoreException.KeyExists e) {
                if (!generated || nameAttempts == GENERATE_NAME_ATTEMPTS) {
                    throw ApiException.alreadyExists(type.group(), type.resource(), name);
                }
            }
        }
    }

    /**
     * PUT on the object or, with {@code statusOnly}, on its {@code status} subresource: for types that have one,
     * a write to the object keeps the stored status, and a write to the status changes nothing else.
     */
    public CompletionStage<StoredObject> update(ResourceType type, String namespace, String name, JsonNode requestBody,
            boolean dryRun, boolean statusOnly) {
        return update(type, namespace, name, requestBody, dryRun, statusOnly, Writer.SERVER, desired -> { });
    }

    /**
     * @param inspect sees the object to be stored on each attempt, once the stored one it replaces was read (and may
     *                refuse it): an escalation check must judge the update against what it actually replaces
     */
    public CompletionStage<StoredObject> update(ResourceType type, String namespace, String name, JsonNode requestBody,
            boolean dryRun, boolean statusOnly, Writer writer, Consumer<ObjectNode> inspect) {
        ObjectNode body = BodyRules.requireObject(requestBody, type);
        BodyRules.conform(type, body, namespace, name);
        long expected = BodyRules.expectedRevision(type, body);
        // when it changed since we read it: read and compute again; a pinned revision then conflicts here
        return Contention.retry(store, type.group(), type.resource(), name, () -> {
            StoredObject current = current(type, namespace, name);
            if (expected == 0 && !type.updates().allowUnconditionalUpdate()) {
                // as kube's store words it, naming the resource where the kind would be
                throw ApiException.invalid(type.group(), type.plural(), name, List.of(Cause.invalidPrinted(
                        "metadata.resourceVersion", "0x0", "must be specified for an update")));
            }
            if (expected != 0 && expected != current.revision()) {
                throw ApiException.conflict(type.group(), type.resource(), name);
            }
            ObjectNode desired = body.deepCopy();
            inspect.accept(desired);
            return commitReplacement(type, current, desired, dryRun, statusOnly, writer);
        });
    }

    /** Whether a PUT of {@code name} creates it: its type creates on update, and there is no such object now. */
    public boolean putCreates(ResourceType type, String namespace, String name) {
        return type.updates().allowCreateOnUpdate() && store.latest(ObjectReads.key(type, namespace, name)) == null;
    }

    /**
     * A PUT that creates (see {@link #putCreates}): a create of the path's name. A resourceVersion in the body is
     * left out, as kube's store leaves it when an update creates; another client that creates the object first
     * makes this one 409 AlreadyExists.
     */
    public CompletionStage<StoredObject> createByPut(ResourceType type, String namespace, String name,
            JsonNode requestBody, boolean dryRun, Writer writer) {
        ObjectNode body = BodyRules.requireObject(requestBody, type);
        BodyRules.conform(type, body, namespace, name);
        body.withObject("/metadata").remove("resourceVersion");
        return create(type, namespace, body, dryRun, writer);
    }

    /**
     * PATCH on the object or, with {@code statusOnly}, on its {@code status} subresource (see update): applies
     * {@code patch} to the current object, again on each retry.
     */
    public CompletionStage<StoredObject> patch(ResourceType type, String namespace, String name, PatchType patchType,
            JsonNode patch, boolean dryRun, boolean statusOnly) {
        return patch(type, namespace, name, patchType, patch, dryRun, statusOnly, Writer.SERVER, patched -> { });
    }

    /**
     * @param inspect sees each patched object before anything else does (and may refuse it): fieldValidation of a
     *                JSON patch, whose fields only show in its result
     */
    public CompletionStage<StoredObject> patch(ResourceType type, String namespace, String name, PatchType patchType,
            JsonNode patch, boolean dryRun, boolean statusOnly, Writer writer, Consumer<ObjectNode> inspect) {
        // when it changed since we read it: patch the new state
        return Contention.retry(store, type.group(), type.resource(), name, () -> {
            StoredObject current = current(type, namespace, name);
            ObjectNode patched = patcher.apply(type, patchType, type.shown(current.tree()), patch,
                    limits.maxBytes());
            inspect.accept(patched);
            JsonShape.requireStorable(patched);
            BodyRules.conform(type, patched, namespace, name);
            long expected = BodyRules.expectedRevision(type, patched);
            if (expected != 0 && expected != current.revision()) {
                throw ApiException.conflict(type.group(), type.resource(), name);
            }
            return commitReplacement(type, current, patched, dryRun, statusOnly, writer);
        });
    }

    /**
     * A write of the scale subresource: the replicas of the Scale {@code scale} makes of the current one (the body
     * of a PUT, or a patch of the current Scale) written into the object's {@code spec.replicas}, at the
     * resourceVersion the Scale names if it names one, as any update of the object (its generation counts it).
     *
     * @return the object as written
     */
    public CompletionStage<StoredObject> scale(ResourceType type, String namespace, String name,
            java.util.function.Function<ObjectNode, JsonNode> scale, boolean dryRun, Writer writer) {
        return Contention.retry(store, type.group(), type.resource(), name, () -> {
            StoredObject current = current(type, namespace, name);
            JsonNode desired = scale.apply(Scales.of(current));
            long replicas = Scales.replicas(type, name, desired, current);
            long expected = Scales.expectedRevision(type, name, desired);
            if (expected != 0 && expected != current.revision()) {
                throw ApiException.conflict(type.group(), type.resource(), name);
            }
            ObjectNode object = current.tree().deepCopy();
            object.withObject("/spec").put("replicas", replicas);
            return commitReplacement(type, current, object, dryRun, false, writer.through("scale"));
        });
    }

    /** Applies {@code patch} to a Scale, as a patch of the scale subresource is applied. */
    public ObjectNode patchScale(ResourceType type, PatchType patchType, ObjectNode scale, JsonNode patch) {
        return patcher.apply(type, patchType, scale, patch, limits.maxBytes());
    }

    /**
     * The serialized size of the object as stored now, 0 when there is none: what an update or a patch of it copies
     * and merges, however small its body.
     */
    public long storedBytes(ResourceType type, String namespace, String name) {
        StoredObject current = store.latest(ObjectReads.key(type, namespace, name));
        return current == null || current.json() == null ? 0 : current.json().length;
    }

    private StoredObject current(ResourceType type, String namespace, String name) {
        StoredObject current = store.latest(ObjectReads.key(type, namespace, name));
        if (current == null) {
            throw ApiException.notFound(type.group(), type.resource(), name);
        }
        return current;
    }

    /**
     * @param writer whom managedFields records as the writer (of the status when {@code statusOnly}); null when an
     *               apply has recorded its manager already
     */
    CompletionStage<StoredObject> commitReplacement(ResourceType type, StoredObject current, ObjectNode desired,
            boolean dryRun, boolean statusOnly, Writer writer) {
        // compared and carried over at the version desired is at: a custom object's definition conforms it to the
        // storage version below, where a type that shares another's storage keeps the version written until it is
        // stored (its fields are named by that version: its managedFields and its validation go by them)
        ObjectNode currentShown = type.sharesStorage() ? type.shown(current.tree()) : current.tree();
        if (type.subresources().status()) {
            // what an apply recorded stays, whatever part of the object the write takes
            JsonNode applied = writer == null ? desired.path("metadata").get("managedFields") : null;
            desired = StatusWrites.shaped(type, currentShown, desired, statusOnly);
            if (applied != null) {
                desired.withObject("/metadata").set("managedFields", applied);
            }
        }
        // pruned before anything compares: a write of only undeclared fields changes nothing
        customResources.conform(type, desired);
        protobuf.conform(type, desired);
        requireWithinLimit(desired);
        TypeDefaults.onUpdate(type, currentShown, desired, clock.instant());
        ServerFields.carryOver(type, currentShown, desired);
        if (statusOnly) {
            // a status write is no change of spec: the generation stays
            JsonNode generation = currentShown.path("metadata").get("generation");
            if (generation != null) {
                desired.withObject("/metadata").set("generation", generation.deepCopy());
            }
        }
        if (writer != null) {
            tracking.updated(type, currentShown, desired, statusOnly ? writer.through("status") : writer);
        }
        Finalization.checkNoNewFinalizers(type, currentShown, desired);
        validator.validate(type, desired, currentShown);
        requireWithinLimit(desired); // again, with its managedFields
        boolean namespace = Deletions.isNamespaces(type);
        if (!namespace && Finalization.isTerminating(desired) && !Finalization.hasFinalizers(desired)) {
            if (dryRun) {
                return CompletableFuture.completedFuture(DryRun.of(current.key(), desired));
            }
            // its namespace or its definition may have been waiting for it to go
            return store.submit(Mutation.delete(current.key(), current.revision())).thenComposeAsync(
                    deleted -> deletions.removed(deleted.object()).thenApply(done -> deleted.object()),
                    Infrastructure.getDefaultWorkerPool());
        }
        ObjectNode stored = type.stored(desired);
        if (ServerFields.sameIgnoringResourceVersion(current.tree(), stored)) {
            return store.counted(current); // it may be a write still on its way to the disk
        }
        if (dryRun) {
            return CompletableFuture.completedFuture(DryRun.of(current.key(), desired));
        }
        CompletableFuture<ChangeEvent> update = store.submit(Mutation.update(current.key(), stored, current.revision()));
        if (namespace && Finalization.isTerminating(desired)) {
            // maybe the last finalizer of a namespace that is already empty
            return update.thenComposeAsync(updated -> namespaces.finalizeIfDone(current.key().name())
                    .thenApply(after -> after != null ? after : updated.object()), Infrastructure.getDefaultWorkerPool());
        }
        return update.thenApply(ChangeEvent::object);
    }

    /** 413 for an object larger than any update may leave one (its managedFields included). */
    private void requireWithinLimit(ObjectNode object) {
        long bytes = JsonShape.estimatedBytes(object);
        if (bytes > limits.maxBytes()) {
            throw new ApiException(413, "RequestEntityTooLarge", "the object would be about " + bytes
                    + " bytes, larger than the limit of " + limits.maxBytes() + " bytes");
        }
    }
}
