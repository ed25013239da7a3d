package io.watchgate.store;

/**
 * Identifies one object: its resource (group and plural), namespace ("" when cluster-scoped) and name.
 * Keys sort by resource, then namespace, then name, which is the order lists are served in.
 */
public record ObjectKey(String resource, String namespace, String name) implements Comparable<ObjectKey> {

    /** Sorts after every real name or namespace: names are ASCII. */
    static final String HIGHEST = "\uffff";

    /** The API group its resource belongs to: what follows the plural ({@code widgets.example.com}), "" for core. */
    public String group() {
        int dot = resource.indexOf('.');
        return dot < 0 ? "" : resource.substring(dot + 1);
    }

    @Override
    public int compareTo(ObjectKey other) {
        // spelled out rather than a composed Comparator: every index lookup makes some 20 of these
        int byResource = resource.compareTo(other.resource);
        if (byResource != 0) {
            return byResource;
        }
        int byNamespace = namespace.compareTo(other.namespace);
        return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
    }
}
