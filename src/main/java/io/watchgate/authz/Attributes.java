package io.watchgate.authz;

import io.watchgate.authn.UserInfo;
import io.watchgate.request.RequestInfo;

/**
 * What an authorizer decides on (kube-apiserver's {@code authorizer.Attributes}): who asks, and what for. A
 * resource request names a verb on a resource of an API group, maybe a subresource, a namespace and a name; any other
 * request is a verb (the lowercased method) on a path.
 *
 * @param namespace empty for cluster-scoped resources and for requests across all namespaces
 * @param name      empty for collections (a list or watch restricted by a field selector to one name carries it)
 */
public record Attributes(UserInfo user, String verb, boolean resourceRequest, String group, String version,
        String resource, String subresource, String namespace, String name, String path) {

    /** The attributes of a request as parsed once ({@link RequestInfo}), sent by {@code user}. */
    public static Attributes of(UserInfo user, RequestInfo info) {
        return new Attributes(user, info.verb(), info.resourceRequest(), info.group(), info.version(),
                info.resource(), info.subresource(), info.namespace(), info.name(), info.path());
    }

    /** A resource request, as an access review states one. */
    public static Attributes resource(UserInfo user, String verb, String group, String version, String resource,
            String subresource, String namespace, String name) {
        return new Attributes(user, verb, true, group, version, resource, subresource, namespace, name, "");
    }

    /** A request for a path outside the resource API ({@code /version}, {@code /api}, {@code /openapi/v2}). */
    public static Attributes nonResource(UserInfo user, String verb, String path) {
        return new Attributes(user, verb, false, "", "", "", "", "", "", path);
    }
}
