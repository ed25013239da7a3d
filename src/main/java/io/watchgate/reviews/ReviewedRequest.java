package io.watchgate.reviews;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import java.util.ArrayList;
import java.util.List;

/**
 * The request an access review asks about: its {@code spec.resourceAttributes} or {@code spec.nonResourceAttributes}
 * (exactly one of them, as kube-apiserver's validation requires), read into the {@link Attributes} a request with
 * those properties would have.
 */
final class ReviewedRequest {

    private ReviewedRequest() {
    }

    static Attributes of(JsonNode spec, UserInfo user, String kind) {
        JsonNode resource = spec.path("resourceAttributes");
        JsonNode nonResource = spec.path("nonResourceAttributes");
        boolean hasResource = resource.isObject();
        boolean hasNonResource = nonResource.isObject();
        List<Cause> causes = new ArrayList<>();
        if (hasResource && hasNonResource) {
            causes.add(Cause.invalid("spec.nonResourceAttributes", "{...}",
                    "cannot be specified in combination with resourceAttributes"));
        }
        if (!hasResource && !hasNonResource) {
            causes.add(Cause.invalid("spec.resourceAttributes", "null",
                    "exactly one of nonResourceAttributes or resourceAttributes must be specified"));
        }
        if (!causes.isEmpty()) {
            throw ApiException.invalid(io.watchgate.types.ReviewTypes.AUTHORIZATION, kind, "", causes);
        }
        if (hasNonResource) {
            return Attributes.nonResource(user, text(nonResource, "verb"), text(nonResource, "path"));
        }
        return Attributes.resource(user, text(resource, "verb"), text(resource, "group"), text(resource, "version"),
                text(resource, "resource"), text(resource, "subresource"), text(resource, "namespace"),
                text(resource, "name"));
    }

    static String text(JsonNode parent, String field) {
        JsonNode value = parent.path(field);
        return value.isTextual() ? value.textValue() : "";
    }
}
