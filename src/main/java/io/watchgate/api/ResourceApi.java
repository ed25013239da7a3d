package io.watchgate.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.objects.DeleteOptions;
import io.watchgate.objects.Deletions;
import io.watchgate.objects.ListOptions;
import io.watchgate.objects.ObjectReads;
import io.watchgate.objects.ObjectWrites;
import io.watchgate.objects.Selection;
import io.watchgate.patch.PatchType;
import io.watchgate.patch.Patcher;
import io.watchgate.schema.ResourceTypes;
import io.watchgate.status.ApiException;
import io.watchgate.store.StoredObject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kubernetes resource API of one group and version, below {@code /api/v1} or
 * {@code /apis/{group}/{version}} (see {@link ApiRoots}): paths and verbs map onto reads, writes and deletions.
 */
public class ResourceApi {

    private final String group;
    private final String version;
    private final ResourceTypes types;
    private final ObjectReads reads;
    private final ObjectWrites writes;
    private final Deletions deletions;
    private final Json json;
    private final ResponseBodies bodies;

    ResourceApi(String group, String version, ResourceTypes types, ObjectReads reads, ObjectWrites writes,
            Deletions deletions, Json json, ResponseBodies bodies) {
        this.group = group;
        this.version = version;
        this.types = types;
        this.reads = reads;
        this.writes = writes;
        this.deletions = deletions;
        this.json = json;
        this.bodies = bodies;
    }

    // collections: cluster-scoped types, or every namespace of a namespaced type

    @GET
    @Path("{plural}")
    public Response list(@PathParam("plural") String plural, @Context UriInfo uri, @Context HttpHeaders headers) {
        return list(Target.resolve(types, group, version, null, plural), uri, headers);
    }

    @POST
    @Path("{plural}")
    public Response create(@PathParam("plural") String plural, @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        Target target = Target.resolve(types, group, version, null, plural);
        if (target.type().namespaced()) {
            throw methodNotAllowed();
        }
        return create(target, uri, headers, body);
    }

    @DELETE
    @Path("{plural}")
    public Response deleteCollection(@PathParam("plural") String plural, @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        Target target = Target.resolve(types, group, version, null, plural);
        if (target.type().namespaced()) {
            throw methodNotAllowed();
        }
        return deleteCollection(target, uri, headers, body);
    }

    // collections in one namespace

    @GET
    @Path("namespaces/{namespace}/{plural}")
    public Response listNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural, @Context UriInfo uri,
            @Context HttpHeaders headers) {
        return list(Target.resolve(types, group, version, namespace, plural), uri, headers);
    }

    @POST
    @Path("namespaces/{namespace}/{plural}")
    public Response createNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return create(Target.resolve(types, group, version, namespace, plural), uri, headers, body);
    }

    @DELETE
    @Path("namespaces/{namespace}/{plural}")
    public Response deleteNamespacedCollection(@PathParam("namespace") String namespace,
            @PathParam("plural") String plural, @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return deleteCollection(Target.resolve(types, group, version, namespace, plural), uri, headers, body);
    }

    // single objects, cluster-scoped

    @GET
    @Path("{plural}/{name}")
    public Response get(@PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers) {
        return get(Target.resolveObject(types, group, version, null, plural), name, uri, headers);
    }

    @PUT
    @Path("{plural}/{name}")
    public Response update(@PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return update(Target.resolveObject(types, group, version, null, plural), name, uri, headers, body);
    }

    @PATCH
    @Path("{plural}/{name}")
    public Response patch(@PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return patch(Target.resolveObject(types, group, version, null, plural), name, uri, headers, body);
    }

    @DELETE
    @Path("{plural}/{name}")
    public Response delete(@PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return delete(Target.resolveObject(types, group, version, null, plural), name, uri, headers, body);
    }

    // single objects in a namespace

    @GET
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Response getNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers) {
        return get(Target.resolveObject(types, group, version, namespace, plural), name, uri, headers);
    }

    @PUT
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Response updateNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return update(Target.resolveObject(types, group, version, namespace, plural), name, uri, headers, body);
    }

    @PATCH
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Response patchNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return patch(Target.resolveObject(types, group, version, namespace, plural), name, uri, headers, body);
    }

    @DELETE
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Response deleteNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return delete(Target.resolveObject(types, group, version, namespace, plural), name, uri, headers, body);
    }

    // verbs a path does not serve: 405 with a Status

    @PUT
    @Path("{plural}")
    public Response putCollection() {
        throw methodNotAllowed();
    }

    @PATCH
    @Path("{plural}")
    public Response patchCollection() {
        throw methodNotAllowed();
    }

    @PUT
    @Path("namespaces/{namespace}/{plural}")
    public Response putNamespacedCollection() {
        throw methodNotAllowed();
    }

    @PATCH
    @Path("namespaces/{namespace}/{plural}")
    public Response patchNamespacedCollection() {
        throw methodNotAllowed();
    }

    @POST
    @Path("{plural}/{name}")
    public Response postObject() {
        throw methodNotAllowed();
    }

    @POST
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Response postNamespacedObject() {
        throw methodNotAllowed();
    }

    // the verbs

    private Response list(Target target, UriInfo uri, HttpHeaders headers) {
        MediaTypes.requireJsonAcceptable(headers);
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        ListOptions options = new ListOptions(query.getFirst("labelSelector"), query.getFirst("fieldSelector"),
                query.getFirst("resourceVersion"), query.getFirst("resourceVersionMatch"),
                ListOptions.parseLimit(query.getFirst("limit")), query.getFirst("continue"));
        return bodies.list(reads.list(target.type(), target.namespace(), options));
    }

    private Response get(Target target, String name, UriInfo uri, HttpHeaders headers) {
        MediaTypes.requireJsonAcceptable(headers);
        String resourceVersion = uri.getQueryParameters().getFirst("resourceVersion");
        return bodies.object(200, reads.get(target.type(), target.namespace(), name, resourceVersion));
    }

    private Response create(Target target, UriInfo uri, HttpHeaders headers, byte[] body) {
        MediaTypes.requireJsonAcceptable(headers);
        MediaTypes.requireJsonBody(headers);
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"));
        StoredObject created = writes.create(target.type(), namespaceOrEmpty(target), json.parse(body), dryRun);
        return bodies.object(201, created);
    }

    private Response update(Target target, String name, UriInfo uri, HttpHeaders headers, byte[] body) {
        MediaTypes.requireJsonAcceptable(headers);
        MediaTypes.requireJsonBody(headers);
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"));
        return bodies.object(200, writes.update(target.type(), namespaceOrEmpty(target), name, json.parse(body),
                dryRun));
    }

    private Response patch(Target target, String name, UriInfo uri, HttpHeaders headers, byte[] body) {
        MediaTypes.requireJsonAcceptable(headers);
        PatchType patchType = PatchType.fromContentType(headers.getHeaderString(HttpHeaders.CONTENT_TYPE))
                .filter(t -> Patcher.acceptedMediaTypes(target.type()).contains(t.mediaType()))
                .orElseThrow(() -> Patcher.unsupported(target.type()));
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"));
        return bodies.object(200, writes.patch(target.type(), namespaceOrEmpty(target), name, patchType,
                json.parse(body), dryRun));
    }

    private Response delete(Target target, String name, UriInfo uri, HttpHeaders headers, byte[] body) {
        MediaTypes.requireJsonAcceptable(headers);
        DeleteOptions options = deleteOptions(uri, headers, body);
        return bodies.object(200, deletions.delete(target.type(), namespaceOrEmpty(target), name, options));
    }

    private Response deleteCollection(Target target, UriInfo uri, HttpHeaders headers, byte[] body) {
        MediaTypes.requireJsonAcceptable(headers);
        DeleteOptions options = deleteOptions(uri, headers, body);
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        Selection selection = Selection.parse(target.type(), query.getFirst("labelSelector"),
                query.getFirst("fieldSelector"));
        return bodies.list(deletions.deleteCollection(target.type(), target.namespace(), selection,
                options.dryRun()));
    }

    /** DeleteOptions from the body (when one is sent) and the query. */
    private DeleteOptions deleteOptions(UriInfo uri, HttpHeaders headers, byte[] body) {
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"));
        if (body == null || body.length == 0) {
            return new DeleteOptions(null, null, dryRun);
        }
        MediaTypes.requireJsonBody(headers);
        JsonNode options = json.parse(body);
        if (!options.isObject()) {
            throw ApiException.badRequest("DeleteOptions must be a JSON object");
        }
        JsonNode preconditions = options.path("preconditions");
        List<String> bodyDryRun = new ArrayList<>();
        options.path("dryRun").forEach(v -> bodyDryRun.add(v.asText()));
        return new DeleteOptions(textOrNull(preconditions.get("uid")), textOrNull(preconditions.get("resourceVersion")),
                dryRun || QueryFlags.dryRun(bodyDryRun));
    }

    private static String textOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    private static String namespaceOrEmpty(Target target) {
        return target.namespace() == null ? "" : target.namespace();
    }

    private static ApiException methodNotAllowed() {
        return new ApiException(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
    }
}
