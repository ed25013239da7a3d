package io.watchgate.api;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.Identities;
import io.watchgate.request.QueryFlags;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfos;
import io.watchgate.request.Target;
import io.watchgate.status.ApiException;
import io.watchgate.types.ReviewTypes;
import io.watchgate.watch.http.WatchRoute;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;

/**
 * The Kubernetes resource API and its discovery documents: one endpoint per HTTP method below {@code /api/} and
 * {@code /apis/}, each routing on the request's {@link RequestInfo} (the one parse of it that the watch route, the
 * metrics and, next, authorization read too). What a path names is settled in {@link #target}: a collection, an
 * object, or one of its subresources, so a new subresource is a case there; the verbs a type serves are its own
 * ({@code Target.allowing}).
 *
 * <p>Answers for paths are kube-apiserver's: 404 when the path names nothing served, 405 when it names something
 * that does not take the method. Creates, updates and patches start on the event loop with their bodies read whole,
 * since nothing in them blocks (see {@code ObjectWrites}); large ones go on on a worker ({@link WritePlacement}), and
 * those in YAML, slower to parse, start on one. Reads stay on worker threads: a list may be long, and a read at a
 * future resourceVersion waits for it. Deletions start on worker threads too (a namespace's lists its contents) and
 * are answered once they count, without a thread waiting meanwhile (see {@code ResourceVerbs.delete}).
 * Watches do not get here ({@link WatchRoute} serves them).
 */
@Path("/")
public class ResourceApi {

    /** Everything below a prefix: RESTEasy matches it, the request's parse says what it is. */
    private static final String BELOW_A_PREFIX = "{prefix: apis?}/{path: .+}";

    private final ResourceVerbs verbs;
    private final DiscoveryResponses discovery;

    ResourceApi(ResourceVerbs verbs, DiscoveryResponses discovery) {
        this.verbs = verbs;
        this.discovery = discovery;
    }

    @GET
    @Path("version")
    public Response version() {
        return discovery.version();
    }

    @GET
    @Path("api")
    public Response coreGroup(@Context HttpHeaders headers) {
        return discovery.root(true, headers);
    }

    @GET
    @Path("apis")
    public Response groups(@Context HttpHeaders headers) {
        return discovery.root(false, headers);
    }

    /** Discovery documents, lists and gets; HEAD too. */
    @GET
    @Path(BELOW_A_PREFIX)
    public Response read(@Context RoutingContext request, @Context UriInfo uri, @Context HttpHeaders headers) {
        RequestInfo info = RequestInfos.of(request);
        if (!info.resourceRequest()) {
            return discoveryDocument(info, headers);
        }
        // refused when it is no boolean, as on a watch; a subresource reads no watch parameter
        boolean watch = info.subresource().isEmpty() && watchParameter(uri);
        if (watch && info.verb().equals(RequestInfo.WATCH) && info.parts().size() == 1) {
            // a HEAD asking for a watch (GETs go to the watch route): there is no stream to show, the list's head
            return verbs.list(target(info, RequestInfo.LIST), uri, headers);
        }
        Target target = target(info, info.verb());
        return info.namesObject() ? verbs.get(target, info.name(), uri, headers) : verbs.list(target, uri, headers);
    }

    @POST
    @NonBlocking
    @Path(BELOW_A_PREFIX)
    public Uni<Response> create(@Context RoutingContext request, @Context UriInfo uri, @Context HttpHeaders headers,
            byte[] body) {
        RequestInfo info = resourceRequest(request);
        Target target = target(info, info.verb());
        if (info.namesObject() || !inItsScope(info, target)) {
            throw methodNotAllowed();
        }
        if (ReviewTypes.isReview(target.type())) {
            return verbs.review(target, Identities.of(request), headers, body);
        }
        return verbs.create(target, Identities.of(request), uri, headers, body);
    }

    /** A create in YAML, whose parse takes several times JSON's: on a worker thread, not the event loop. */
    @POST
    @Blocking
    @Consumes(MediaTypes.YAML_MEDIA_TYPE)
    @Path(BELOW_A_PREFIX)
    public Uni<Response> createFromYaml(@Context RoutingContext request, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return create(request, uri, headers, body);
    }

    @PUT
    @NonBlocking
    @Path(BELOW_A_PREFIX)
    public Uni<Response> update(@Context RoutingContext request, @Context UriInfo uri, @Context HttpHeaders headers,
            byte[] body) {
        RequestInfo info = resourceRequest(request);
        Target target = objectOrSubresource(info);
        return verbs.update(target, Identities.of(request), info.name(), uri, headers, body);
    }

    /** An update in YAML: on a worker thread, as a create in YAML. */
    @PUT
    @Blocking
    @Consumes(MediaTypes.YAML_MEDIA_TYPE)
    @Path(BELOW_A_PREFIX)
    public Uni<Response> updateFromYaml(@Context RoutingContext request, @Context UriInfo uri,
            @Context HttpHeaders headers, byte[] body) {
        return update(request, uri, headers, body);
    }

    @PATCH
    @NonBlocking
    @Path(BELOW_A_PREFIX)
    public Uni<Response> patch(@Context RoutingContext request, @Context UriInfo uri, @Context HttpHeaders headers,
            byte[] body) {
        RequestInfo info = resourceRequest(request);
        Target target = objectOrSubresource(info);
        return verbs.patch(target, Identities.of(request), info.name(), uri, headers, body);
    }

    @DELETE
    @Blocking
    @Path(BELOW_A_PREFIX)
    public Uni<Response> delete(@Context RoutingContext request, @Context UriInfo uri, @Context HttpHeaders headers,
            InputStream body) {
        RequestInfo info = resourceRequest(request);
        Target target = target(info, info.verb());
        if (!info.namesObject()) {
            if (!inItsScope(info, target)) {
                throw methodNotAllowed();
            }
            return verbs.deleteCollection(target, uri, headers, body);
        }
        if (target.subresource() != Target.Subresource.NONE) {
            throw methodNotAllowed();
        }
        return verbs.delete(target, info.name(), uri, headers, body);
    }

    /**
     * What the path names, if the API serves it: a type's collection, one object, or the object's status (the one
     * subresource served). 404 when it names nothing, and for the legacy {@code watch/} and {@code proxy/} segments
     * on anything but a watch.
     */
    private Target target(RequestInfo info, String verb) {
        if (verb.equals(RequestInfo.WATCH) || verb.equals(RequestInfo.PROXY)) {
            throw notFound();
        }
        String group = info.group();
        String version = info.version();
        String namespace = info.scopeNamespace();
        return switch (info.parts().size()) {
            case 1 -> verbs.collection(group, version, namespace, info.resource());
            case 2 -> verbs.object(group, version, namespace, info.resource());
            case 3 -> switch (info.subresource()) {
                case "status" -> verbs.status(verbs.object(group, version, namespace, info.resource()));
                case "scale" -> verbs.scale(verbs.object(group, version, namespace, info.resource()));
                default -> throw notFound();
            };
            default -> throw notFound();
        };
    }

    /** An update's or a patch's target: an object or its subresource (a collection takes neither). */
    private Target objectOrSubresource(RequestInfo info) {
        Target target = target(info, info.verb());
        if (!info.namesObject()) {
            throw methodNotAllowed();
        }
        return target;
    }

    /**
     * Whether a collection request is in the scope its type's objects are made in: a namespaced type's collection
     * across all namespaces can be listed, but not written to or deleted from.
     */
    private static boolean inItsScope(RequestInfo info, Target target) {
        return !target.type().namespaced() || info.namespaceScoped();
    }

    /** A resource request; below a prefix, a discovery document takes only GET (405), and anything else is 404. */
    private static RequestInfo resourceRequest(RoutingContext request) {
        RequestInfo info = RequestInfos.of(request);
        if (!info.resourceRequest()) {
            throw isDiscoveryDocument(info) ? methodNotAllowed() : notFound();
        }
        return info;
    }

    private Response discoveryDocument(RequestInfo info, HttpHeaders headers) {
        if (!isDiscoveryDocument(info)) {
            throw notFound();
        }
        if (info.apiPrefix().equals("apis") && info.version().isEmpty()) {
            return discovery.group(info.group(), headers);
        }
        return discovery.resourceList(info.group(), info.version(), headers);
    }

    /** {@code /api/{version}}, {@code /apis/{group}} or {@code /apis/{group}/{version}}. */
    private static boolean isDiscoveryDocument(RequestInfo info) {
        return info.apiPrefix().equals("api") ? !info.version().isEmpty()
                : info.apiPrefix().equals("apis") && !info.group().isEmpty();
    }

    private static boolean watchParameter(UriInfo uri) {
        return QueryFlags.bool("watch", uri.getQueryParameters().getFirst("watch"));
    }

    private static ApiException notFound() {
        return ApiException.noSuchPath();
    }

    private static ApiException methodNotAllowed() {
        return new ApiException(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
    }
}
