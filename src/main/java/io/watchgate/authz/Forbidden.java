package io.watchgate.authz;

import io.watchgate.status.ApiException;

/**
 * The 403 of a request its user may not make, worded as kube-apiserver words it (its responsewriters.Forbidden):
 * {@code configmaps is forbidden: User "x" cannot list resource "configmaps" in API group "" in the namespace "y"},
 * with the authorizer's reason after a colon when it has one.
 */
public final class Forbidden {

    private Forbidden() {
    }

    public static ApiException of(Attributes request, String reason) {
        String why = reason.isEmpty() ? denial(request) : denial(request) + ": " + reason;
        if (!request.resourceRequest()) {
            return new ApiException(403, "Forbidden", "forbidden: " + why, ApiException.Details.NONE, null, null);
        }
        String qualified = request.group().isEmpty() ? request.resource() : request.resource() + "." + request.group();
        String subject = request.name().isEmpty() ? qualified : qualified + " \"" + request.name() + "\"";
        return new ApiException(403, "Forbidden", subject + " is forbidden: " + why,
                new ApiException.Details(request.name().isEmpty() ? null : request.name(), request.group(),
                        request.resource(), java.util.List.of()), null, null);
    }

    /** What the user cannot do, as kube-apiserver's forbiddenMessage says it. */
    static String denial(Attributes request) {
        String user = request.user().name();
        if (!request.resourceRequest()) {
            return "User \"" + user + "\" cannot " + request.verb() + " path \"" + request.path() + "\"";
        }
        String resource = request.subresource().isEmpty() ? request.resource()
                : request.resource() + "/" + request.subresource();
        String where = request.namespace().isEmpty() ? "at the cluster scope"
                : "in the namespace \"" + request.namespace() + "\"";
        return "User \"" + user + "\" cannot " + request.verb() + " resource \"" + resource + "\" in API group \""
                + request.group() + "\" " + where;
    }
}
