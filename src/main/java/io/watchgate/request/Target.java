package io.watchgate.request;

import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;

/**
 * What a request path names: a type, the namespace the request is confined to (null for all namespaces
 * and for cluster-scoped types), and whether it is one of the type's subresources.
 */
public record Target(ResourceType type, String namespace, Subresource subresource) {

    /** The subresources served: the objects' status, and their scale. */
    public enum Subresource { NONE, STATUS, SCALE }

    public Target(ResourceType type, String namespace) {
        this(type, namespace, Subresource.NONE);
    }

    /** Whether it names the status subresource. */
    public boolean status() {
        return subresource == Subresource.STATUS;
    }

    /** Whether it names the scale subresource. */
    public boolean scale() {
        return subresource == Subresource.SCALE;
    }

    /** @param group "" for the core group */
    public static Target resolve(ResourceTypes types, String group, String version, String namespace, String plural) {
        ResourceType type = types.find(group, version, plural).orElseThrow(Target::noSuchResource);
        if (namespace != null && !type.namespaced()) {
            throw noSuchResource();
        }
        return new Target(type, namespace);
    }

    /** A path naming one object; namespaced types need their namespace in the path. */
    public static Target resolveObject(ResourceTypes types, String group, String version, String namespace,
            String plural) {
        Target target = resolve(types, group, version, namespace, plural);
        if (target.type().namespaced() && namespace == null) {
            throw noSuchResource();
        }
        return target;
    }

    /** 405 unless the type serves {@code verb}. */
    public Target allowing(String verb) {
        if (!type.verbs().contains(verb)) {
            throw new ApiException(405, "MethodNotAllowed", "the server does not allow this method on the "
                    + "requested resource: " + type.resource() + " do not support " + verb);
        }
        return this;
    }

    private static ApiException noSuchResource() {
        return ApiException.noSuchPath();
    }
}
