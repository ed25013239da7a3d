package io.watchgate.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.RbacAdmission;
import io.watchgate.metrics.ListSizes;
import io.watchgate.managedfields.Writer;
import io.watchgate.objects.DeleteOptions;
import io.watchgate.objects.Scales;
import io.watchgate.objects.Deletions;
import io.watchgate.objects.ListOptions;
import io.watchgate.objects.ListResult;
import io.watchgate.objects.ObjectReads;
import io.watchgate.objects.ObjectWrites;
import io.watchgate.objects.Selection;
import io.watchgate.openapi.FieldChecks;
import io.watchgate.openapi.FieldValidation;
import io.watchgate.patch.PatchType;
import io.watchgate.patch.Patcher;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.request.QueryFlags;
import io.watchgate.request.Target;
import io.watchgate.reviews.AccessReviews;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.store.StoredObject;
import io.watchgate.tables.Tables;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP side of each verb: query parameters and bodies in, negotiated JSON or protobuf out. What the verbs mean lives
 * in {@code io.watchgate.objects}.
 */
@ApplicationScoped
public class ResourceVerbs {

    private final ResourceTypes types;
    private final ObjectReads reads;
    private final ObjectWrites writes;
    private final ApplyVerb applyVerb;
    private final Deletions deletions;
    private final RequestBodies requests;
    private final ResponseBodies bodies;
    private final FieldChecks fieldChecks;
    private final ProtobufObjects protobuf;
    private final ListSizes listSizes;
    private final WritePlacement placement;
    private final RbacAdmission admission;
    private final CreateRight createRight;
    private final AccessReviews reviews;
    private final Json json;

    ResourceVerbs(ResourceTypes types, ObjectReads reads, ObjectWrites writes, ApplyVerb applyVerb,
            Deletions deletions,
            RequestBodies requests, ResponseBodies bodies, FieldChecks fieldChecks,
            ProtobufObjects protobuf, ListSizes listSizes,
            WritePlacement placement, RbacAdmission admission, CreateRight createRight, AccessReviews reviews,
            Json json) {
        this.admission = admission;
        this.createRight = createRight;
        this.reviews = reviews;
        this.json = json;
        this.placement = placement;
        this.listSizes = listSizes;
        this.protobuf = protobuf;
        this.fieldChecks = fieldChecks;
        this.types = types;
        this.reads = reads;
        this.writes = writes;
        this.applyVerb = applyVerb;
        this.deletions = deletions;
        this.requests = requests;
        this.bodies = bodies;
    }

    Target collection(String group, String version, String namespace, String plural) {
        return Target.resolve(types, group, version, namespace, plural);
    }

    Target object(String group, String version, String namespace, String plural) {
        return Target.resolveObject(types, group, version, namespace, plural);
    }

    /** The status subresource of {@code target}'s type: 404 for types without one. */
    Target status(Target target) {
        if (!target.type().subresources().status()) {
            throw ApiException.noSuchPath();
        }
        return new Target(target.type(), target.namespace(), Target.Subresource.STATUS);
    }

    /** The scale subresource of {@code target}'s type: 404 for types without one. */
    Target scale(Target target) {
        if (!target.type().subresources().scale()) {
            throw ApiException.noSuchPath();
        }
        return new Target(target.type(), target.namespace(), Target.Subresource.SCALE);
    }


    Response list(Target target, UriInfo uri, HttpHeaders headers) {
        target.allowing("list");
        Representation representation = Representation.negotiate(headers, protobuf.serves(target.type()));
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        // watches never get here: WatchRoute serves them
        if (query.getFirst("sendInitialEvents") != null && !query.getFirst("sendInitialEvents").isEmpty()) {
            throw ApiException.badRequest("sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list");
        }
        Tables.IncludeObject include = Tables.IncludeObject.parse(query.getFirst("includeObject"));
        ListOptions options = new ListOptions(query.getFirst("labelSelector"), query.getFirst("fieldSelector"),
                query.getFirst("resourceVersion"), query.getFirst("resourceVersionMatch"),
                ListOptions.parseLimit(query.getFirst("limit")), query.getFirst("continue"));
        ListResult result = reads.list(target.type(), target.namespace(), options);
        listSizes.record(target.type().resource(), result.items().size());
        return bodies.list(result, representation, include);
    }

    Response get(Target target, String name, UriInfo uri, HttpHeaders headers) {
        target.allowing("get");
        Representation representation = Representation.negotiateOne(headers, protobuf.serves(target.type()));
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        Tables.IncludeObject include = Tables.IncludeObject.parse(query.getFirst("includeObject"));
        StoredObject object = reads.get(target.type(), target.namespace(), name, query.getFirst("resourceVersion"));
        if (target.scale()) {
            return scaleAnswer(object);
        }
        return bodies.read(target.type(), object, representation, include);
    }

    /** A Scale, in JSON: the one form its clients (kubectl scale, autoscalers) read. */
    private Response scaleAnswer(StoredObject object) {
        return Response.ok(json.write(Scales.of(object))).type(MediaType.APPLICATION_JSON).build();
    }

    /** A write of the scale subresource: {@code scale} makes the Scale to write of the current one. */
    private Uni<Response> writeScale(Target target, String name, UriInfo uri, HttpHeaders headers, byte[] body,
            String options, java.util.function.BiFunction<JsonNode, ObjectNode, JsonNode> scale) {
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"), options);
        Writer writer = FieldManagers.of(uri, headers, options);
        return placement.run(length(body), () -> {
            JsonNode sent = requests.json(requests.read(body));
            return WriteAnswers.answer(writes.scale(target.type(), namespaceOrEmpty(target), name,
                    current -> scale.apply(sent, current), dryRun, writer), this::scaleAnswer);
        });
    }

    Uni<Response> create(Target target, UserInfo user, UriInfo uri, HttpHeaders headers, byte[] body) {
        target.allowing("create");
        Representation representation = Representation.negotiateWritten(headers, protobuf.serves(target.type()));
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"), "CreateOptions");
        FieldValidation validation = FieldValidation.parse(uri.getQueryParameters().getFirst("fieldValidation"),
                "CreateOptions");
        Writer writer = FieldManagers.of(uri, headers, "CreateOptions");
        return placement.run(length(body), () -> {
            JsonNode object = requests.object(target.type(), headers, body);
            List<String> warnings = fieldChecks.check(target.type(), object, validation);
            admission.admit(user, target.type(), namespaceOrEmpty(target), "", object);
            return WriteAnswers.answer(writes.create(target.type(), namespaceOrEmpty(target), object, dryRun, writer),
                    created -> WriteAnswers.withWarnings(bodies.written(target.type(), 201, created, representation), warnings));
        });
    }

    Uni<Response> update(Target target, UserInfo user, String name, UriInfo uri, HttpHeaders headers,
            byte[] body) {
        target.allowing("update");
        Representation representation = Representation.negotiateWritten(headers, protobuf.serves(target.type()));
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"), "UpdateOptions");
        FieldValidation validation = FieldValidation.parse(uri.getQueryParameters().getFirst("fieldValidation"),
                "UpdateOptions");
        if (target.scale()) {
            return writeScale(target, name, uri, headers, body, "UpdateOptions", (sent, current) -> sent);
        }
        Writer writer = FieldManagers.of(uri, headers, "UpdateOptions");
        if (!target.status() && writes.putCreates(target.type(), namespaceOrEmpty(target), name)) {
            return createByPut(target, user, name, headers, body, representation, dryRun, validation, writer);
        }
        long bytes = Math.max(length(body), writes.storedBytes(target.type(), namespaceOrEmpty(target), name));
        return placement.run(bytes, () -> {
            JsonNode object = requests.object(target.type(), headers, body);
            List<String> warnings = fieldChecks.check(target.type(), object, validation);
            // checked against the object it replaces, read again on each attempt (as kube checks in its update)
            return WriteAnswers.answer(writes.update(target.type(), namespaceOrEmpty(target), name, object, dryRun,
                    target.status(), writer, desired -> admission.admit(user, target.type(), namespaceOrEmpty(target), name,
                            desired)),
                    updated -> WriteAnswers.withWarnings(bodies.written(target.type(), 200, updated, representation), warnings));
        });
    }

    /**
     * A PUT of an object that does not exist, of a type that creates on update: as kube-apiserver, the authorizer is
     * asked again, for a create (a right to update creates nothing), and the object is admitted as a create.
     */
    private Uni<Response> createByPut(Target target, UserInfo user, String name, HttpHeaders headers, byte[] body,
            Representation representation, boolean dryRun, FieldValidation validation, Writer writer) {
        ResourceType type = target.type();
        createRight.require(target, user, name);
        return placement.run(length(body), () -> {
            JsonNode object = requests.object(type, headers, body);
            List<String> warnings = fieldChecks.check(type, object, validation);
            admission.admit(user, type, namespaceOrEmpty(target), name, object);
            return WriteAnswers.answer(writes.createByPut(type, namespaceOrEmpty(target), name, object, dryRun, writer),
                    created -> WriteAnswers.withWarnings(bodies.written(type, 201, created, representation), warnings));
        });
    }



    Uni<Response> patch(Target target, UserInfo user, String name, UriInfo uri, HttpHeaders headers,
            byte[] body) {
        target.allowing("patch");
        Representation representation = Representation.negotiateWritten(headers, protobuf.serves(target.type()));
        String contentType = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        PatchType patchType = PatchType.fromContentType(contentType)
                .filter(t -> Patcher.acceptedMediaTypes(target.type()).contains(t.mediaType()))
                .orElseThrow(() -> requests.unsupported(Patcher.unsupported(target.type(), contentType)));
        String force = uri.getQueryParameters().getFirst("force");
        if (patchType == PatchType.APPLY_PATCH) {
            return applyVerb.apply(target, user, name, uri, headers, body, representation,
                    QueryFlags.bool("force", force));
        }
        if (force != null) {
            throw ApiException.invalid("meta.k8s.io", "PatchOptions", "", List.of(Cause.forbidden("force",
                    "may not be specified for non-apply patch")));
        }
        if (target.scale()) {
            return writeScale(target, name, uri, headers, body, "PatchOptions",
                    (patch, current) -> writes.patchScale(target.type(), patchType, current, patch));
        }
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"), "PatchOptions");
        Writer writer = FieldManagers.of(uri, headers, "PatchOptions");
        FieldValidation validation = FieldValidation.parse(uri.getQueryParameters().getFirst("fieldValidation"),
                "PatchOptions");
        // a tiny patch of a large object still copies and merges all of it
        long bytes = Math.max(length(body), writes.storedBytes(target.type(), namespaceOrEmpty(target), name));
        return placement.run(bytes, () -> {
            JsonNode patch = requests.json(requests.read(body));
            // merge patches have the object's shape and are checked as sent; a JSON patch shows its fields only in
            // the object it makes, which is checked each time it is made
            List<String> warnings = new ArrayList<>();
            if (patchType != PatchType.JSON_PATCH) {
                warnings.addAll(fieldChecks.check(target.type(), patch, validation));
            }
            return WriteAnswers.answer(writes.patch(target.type(), namespaceOrEmpty(target), name, patchType, patch, dryRun,
                    target.status(), writer, result -> {
                        admission.admit(user, target.type(), namespaceOrEmpty(target), name, result);
                        if (patchType == PatchType.JSON_PATCH) {
                            warnings.clear();
                            warnings.addAll(fieldChecks.check(target.type(), result, validation));
                        }
                    }), patched -> WriteAnswers.withWarnings(bodies.written(target.type(), 200, patched, representation), warnings));
        });
    }

    /** A review (authorization.k8s.io, authentication.k8s.io): answered at once, never stored. */
    Uni<Response> review(Target target, UserInfo user, HttpHeaders headers, byte[] body) {
        target.allowing("create");
        return placement.run(length(body), () -> {
            if (!(requests.object(target.type(), headers, body) instanceof ObjectNode review)) {
                throw ApiException.badRequest("a " + target.type().kind() + " is a JSON object");
            }
            ObjectNode answered = reviews.answer(target.type(), namespaceOrEmpty(target), user, review);
            return Uni.createFrom().item(Response.status(201).type(MediaType.APPLICATION_JSON)
                    .entity(json.write(answered)).build());
        });
    }

    private static long length(byte[] body) {
        return body == null ? 0 : body.length;
    }

    /** Called on a worker thread: it reads the body as a stream, and a namespace's deletion lists its contents. */
    Uni<Response> delete(Target target, String name, UriInfo uri, HttpHeaders headers, InputStream body) {
        target.allowing("delete");
        Representation representation = Representation.negotiateWritten(headers, protobuf.serves(target.type()));
        DeleteOptions options = deleteOptions(target, uri, headers, body);
        return WriteAnswers.answerOnWorker(deletions.delete(target.type(), namespaceOrEmpty(target), name, options),
                deleted -> bodies.written(target.type(), 200, deleted, representation));
    }

    /** Called on a worker thread, as delete; the list it answers may be streamed, which only a worker may write. */
    Uni<Response> deleteCollection(Target target, UriInfo uri, HttpHeaders headers, InputStream body) {
        target.allowing("deletecollection");
        Representation representation = Representation.negotiateWritten(headers, protobuf.serves(target.type()));
        DeleteOptions options = deleteOptions(target, uri, headers, body);
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        Selection selection = Selection.parse(target.type(), query.getFirst("labelSelector"),
                query.getFirst("fieldSelector"));
        return WriteAnswers.answerOnWorker(deletions.deleteCollection(target.type(), target.namespace(), selection,
                options), deleted -> bodies.list(deleted, representation, Tables.IncludeObject.OBJECT));
    }

    /** DeleteOptions from the body when one is sent, else from the query (Kubernetes reads one or the other). */
    private DeleteOptions deleteOptions(Target target, UriInfo uri, HttpHeaders headers, InputStream body) {
        byte[] bytes = requests.read(body);
        if (bytes.length > 0) {
            return DeleteOptions.fromBody(requests.options(headers, bytes), target.type().apiVersion());
        }
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        return DeleteOptions.fromQuery(query.get("dryRun"), query.getFirst("propagationPolicy"),
                query.getFirst("orphanDependents"), query.getFirst("gracePeriodSeconds"));
    }

    private static String namespaceOrEmpty(Target target) {
        return target.namespace() == null ? "" : target.namespace();
    }
}
