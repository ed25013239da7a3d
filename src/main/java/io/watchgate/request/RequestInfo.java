package io.watchgate.request;

import java.util.List;

/**
 * What one HTTP request asks for, read from its method, path and {@code watch} parameter alone, as kube-apiserver's
 * {@code RequestInfo} reads it (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go). It is the one reading of a
 * request that everything after the router's first step shares: the resource API's routing, the watch route, the
 * write counts and request metrics, and next authorization, admission and audit, which see a request by these
 * attributes (verb, group, resource, subresource, namespace, name) rather than by its path. Made once per request by
 * {@link RequestInfoParser}; {@link RequestInfos} keeps it with the request.
 *
 * <p>Absent parts are empty strings, never null, as in kube-apiserver.
 *
 * @param resourceRequest whether the path names a resource of an API group version ({@code /api/{version}/...} or
 *                        {@code /apis/{group}/{version}/...}); discovery documents and everything else are not
 * @param verb            for resource requests the Kubernetes verb: get, list, watch, create, update, patch, delete,
 *                        deletecollection, proxy, or empty for a method no verb has; for the others the lowercased
 *                        method
 * @param path            the path as parsed
 * @param apiPrefix       {@code api} or {@code apis}; also set, with group and version, for the discovery documents
 *                        below a prefix ({@code /api/{version}}, {@code /apis/{group}[/{version}]}), which
 *                        kube-apiserver leaves empty (a non-resource request is authorized by path and verb alone)
 * @param namespace       the namespace the path names: the one it is confined to, or, below
 *                        {@code namespaces/{name}} without a resource after it, the namespace object itself (see
 *                        {@code namespaceScoped})
 * @param namespaceScoped whether the path went through {@code namespaces/{namespace}/} to a resource of its own, so
 *                        that the resource is one in that namespace. kube-apiserver's handlers know this from the
 *                        route they were registered on; {@code namespaces/x} and {@code namespaces/x/namespaces/x}
 *                        differ in nothing else
 * @param resource        the plural resource name, e.g. {@code configmaps}
 * @param subresource     e.g. {@code status}
 * @param name            the object's name: in the path, or for a list or watch the one its field selector requires
 * @param parts           the path from the resource on: {@code resource[/name[/subresource[/...]]]}
 */
public record RequestInfo(boolean resourceRequest, String verb, String path, String apiPrefix, String group,
        String version, String namespace, boolean namespaceScoped, String resource, String subresource, String name,
        List<String> parts) {

    public static final String GET = "get";
    public static final String LIST = "list";
    public static final String WATCH = "watch";
    public static final String CREATE = "create";
    public static final String UPDATE = "update";
    public static final String PATCH = "patch";
    public static final String DELETE = "delete";
    public static final String DELETE_COLLECTION = "deletecollection";
    public static final String PROXY = "proxy";

    /** Whether the path names one object (and so the request no collection), whatever a field selector says. */
    public boolean namesObject() {
        return parts.size() >= 2;
    }

    /** The namespace the resource is confined to, or null: for all namespaces, or a cluster-scoped resource. */
    public String scopeNamespace() {
        return namespaceScoped ? namespace : null;
    }
}
