package io.watchgate.api;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.watchgate.status.ApiException;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;

/**
 * The Kubernetes resource API of one group and version, below {@code /api/v1} or
 * {@code /apis/{group}/{version}} (see {@link ApiRoots}): paths and verbs map onto reads, writes and deletions.
 *
 * <p>Creates, updates and patches run on the event loop with their bodies read whole, since nothing in them
 * blocks (see {@code ObjectWrites}). Reads stay on worker threads: a list may be long, and a read at a future
 * resourceVersion waits for it. Deletions start on worker threads too (a namespace's lists its contents) and are
 * answered once they count, without a thread waiting meanwhile (see {@code ResourceVerbs.delete}).
 */
public class ResourceApi {

    private final String group;
    private final String version;
    private final ResourceVerbs verbs;
    private final DiscoveryResponses discovery;

    ResourceApi(String group, String version, ResourceVerbs verbs, DiscoveryResponses discovery) {
        this.group = group;
        this.version = version;
        this.verbs = verbs;
        this.discovery = discovery;
    }

    /** The group version's APIResourceList. */
    @GET
    public Response resources(@Context HttpHeaders headers) {
        return discovery.resourceList(group, version, headers);
    }

    // collections: cluster-scoped types, or every namespace of a namespaced type

    @GET
    @Path("{plural}")
    public Response list(@PathParam("plural") String plural, @Context UriInfo uri, @Context HttpHeaders headers) {
        return verbs.list(verbs.collection(group, version, null, plural), uri, headers);
    }

    @POST
    @NonBlocking
    @Path("{plural}")
    public Uni<Response> create(@PathParam("plural") String plural, @Context UriInfo uri, @Context HttpHeaders headers,
            byte[] body) {
        Target target = verbs.collection(group, version, null, plural);
        if (target.type().namespaced()) {
            throw methodNotAllowed();
        }
        return verbs.create(target, uri, headers, body);
    }

    @DELETE
    @Blocking
    @Path("{plural}")
    public Uni<Response> deleteCollection(@PathParam("plural") String plural, @Context UriInfo uri,
            @Context HttpHeaders headers, InputStream body) {
        Target target = verbs.collection(group, version, null, plural);
        if (target.type().namespaced()) {
            throw methodNotAllowed();
        }
        return verbs.deleteCollection(target, uri, headers, body);
    }

    // collections in one namespace

    @GET
    @Path("namespaces/{namespace}/{plural}")
    public Response listNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @Context UriInfo uri, @Context HttpHeaders headers) {
        return verbs.list(verbs.collection(group, version, namespace, plural), uri, headers);
    }

    @POST
    @NonBlocking
    @Path("namespaces/{namespace}/{plural}")
    public Uni<Response> createNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return verbs.create(verbs.collection(group, version, namespace, plural), uri, headers, body);
    }

    @DELETE
    @Blocking
    @Path("namespaces/{namespace}/{plural}")
    public Uni<Response> deleteNamespacedCollection(@PathParam("namespace") String namespace,
            @PathParam("plural") String plural, @Context UriInfo uri, @Context HttpHeaders headers, InputStream body) {
        return verbs.deleteCollection(verbs.collection(group, version, namespace, plural), uri, headers, body);
    }

    // single objects, cluster-scoped

    @GET
    @Path("{plural}/{name}")
    public Response get(@PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers) {
        return verbs.get(verbs.object(group, version, null, plural), name, uri, headers);
    }

    @PUT
    @NonBlocking
    @Path("{plural}/{name}")
    public Uni<Response> update(@PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return verbs.update(verbs.object(group, version, null, plural), name, uri, headers, body);
    }

    @PATCH
    @NonBlocking
    @Path("{plural}/{name}")
    public Uni<Response> patch(@PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return verbs.patch(verbs.object(group, version, null, plural), name, uri, headers, body);
    }

    @DELETE
    @Blocking
    @Path("{plural}/{name}")
    public Uni<Response> delete(@PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers, InputStream body) {
        return verbs.delete(verbs.object(group, version, null, plural), name, uri, headers, body);
    }

    // single objects in a namespace

    @GET
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Response getNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers) {
        return verbs.get(verbs.object(group, version, namespace, plural), name, uri, headers);
    }

    @PUT
    @NonBlocking
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Uni<Response> updateNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return verbs.update(verbs.object(group, version, namespace, plural), name, uri, headers, body);
    }

    @PATCH
    @NonBlocking
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Uni<Response> patchNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return verbs.patch(verbs.object(group, version, namespace, plural), name, uri, headers, body);
    }

    @DELETE
    @Blocking
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Uni<Response> deleteNamespaced(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers, InputStream body) {
        return verbs.delete(verbs.object(group, version, namespace, plural), name, uri, headers, body);
    }

    // the status subresource, for types that have one

    @GET
    @Path("{plural}/{name}/status")
    public Response getStatus(@PathParam("plural") String plural, @PathParam("name") String name,
            @Context UriInfo uri, @Context HttpHeaders headers) {
        return verbs.get(verbs.status(verbs.object(group, version, null, plural)), name, uri, headers);
    }

    @PUT
    @NonBlocking
    @Path("{plural}/{name}/status")
    public Uni<Response> updateStatus(@PathParam("plural") String plural, @PathParam("name") String name,
            @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return verbs.update(verbs.status(verbs.object(group, version, null, plural)), name, uri, headers, body);
    }

    @PATCH
    @NonBlocking
    @Path("{plural}/{name}/status")
    public Uni<Response> patchStatus(@PathParam("plural") String plural, @PathParam("name") String name,
            @Context UriInfo uri, @Context HttpHeaders headers, byte[] body) {
        return verbs.patch(verbs.status(verbs.object(group, version, null, plural)), name, uri, headers, body);
    }

    @GET
    @Path("namespaces/{namespace}/{plural}/{name}/status")
    public Response getNamespacedStatus(@PathParam("namespace") String namespace, @PathParam("plural") String plural,
            @PathParam("name") String name, @Context UriInfo uri, @Context HttpHeaders headers) {
        return verbs.get(verbs.status(verbs.object(group, version, namespace, plural)), name, uri, headers);
    }

    @PUT
    @NonBlocking
    @Path("namespaces/{namespace}/{plural}/{name}/status")
    public Uni<Response> updateNamespacedStatus(@PathParam("namespace") String namespace,
            @PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return verbs.update(verbs.status(verbs.object(group, version, namespace, plural)), name, uri, headers, body);
    }

    @PATCH
    @NonBlocking
    @Path("namespaces/{namespace}/{plural}/{name}/status")
    public Uni<Response> patchNamespacedStatus(@PathParam("namespace") String namespace,
            @PathParam("plural") String plural, @PathParam("name") String name, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return verbs.patch(verbs.status(verbs.object(group, version, namespace, plural)), name, uri, headers, body);
    }

    // verbs a path does not serve: 405 with a Status, once the path is known to name something (404 if not: a
    // namespace's own subresources, /api/v1/namespaces/{name}/status and /finalize, land here and are not served)

    @PUT
    @Path("{plural}")
    public Response putCollection(@PathParam("plural") String plural) {
        verbs.collection(group, version, null, plural);
        throw methodNotAllowed();
    }

    @PATCH
    @Path("{plural}")
    public Response patchCollection(@PathParam("plural") String plural) {
        verbs.collection(group, version, null, plural);
        throw methodNotAllowed();
    }

    @PUT
    @Path("namespaces/{namespace}/{plural}")
    public Response putNamespacedCollection(@PathParam("namespace") String namespace,
            @PathParam("plural") String plural) {
        verbs.collection(group, version, namespace, plural);
        throw methodNotAllowed();
    }

    @PATCH
    @Path("namespaces/{namespace}/{plural}")
    public Response patchNamespacedCollection(@PathParam("namespace") String namespace,
            @PathParam("plural") String plural) {
        verbs.collection(group, version, namespace, plural);
        throw methodNotAllowed();
    }

    @POST
    @Path("{plural}/{name}")
    public Response postObject(@PathParam("plural") String plural) {
        verbs.object(group, version, null, plural);
        throw methodNotAllowed();
    }

    @POST
    @Path("namespaces/{namespace}/{plural}/{name}")
    public Response postNamespacedObject(@PathParam("namespace") String namespace,
            @PathParam("plural") String plural) {
        verbs.object(group, version, namespace, plural);
        throw methodNotAllowed();
    }

    private static ApiException methodNotAllowed() {
        return new ApiException(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
    }
}
