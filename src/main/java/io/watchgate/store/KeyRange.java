package io.watchgate.store;

/**
 * The keys of one resource, optionally narrowed to one namespace: the unit a list or watch reads.
 *
 * @param namespace the namespace, or {@code null} for every namespace (and for cluster-scoped resources)
 */
public record KeyRange(String resource, String namespace) {

    public static KeyRange allOf(String resource) {
        return new KeyRange(resource, null);
    }

    public static KeyRange inNamespace(String resource, String namespace) {
        return new KeyRange(resource, namespace);
    }

    ObjectKey lowest() {
        return new ObjectKey(resource, namespace == null ? "" : namespace, "");
    }

    ObjectKey highest() {
        return namespace == null
                ? new ObjectKey(resource, ObjectKey.HIGHEST, ObjectKey.HIGHEST)
                : new ObjectKey(resource, namespace, ObjectKey.HIGHEST);
    }

    public boolean contains(ObjectKey key) {
        return key.resource().equals(resource) && (namespace == null || key.namespace().equals(namespace));
    }
}
