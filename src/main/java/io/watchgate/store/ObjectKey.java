package io.watchgate.store;

import java.util.Comparator;

/**
 * Identifies one object: its resource (group and plural), namespace ("" when cluster-scoped) and name.
 * Keys sort by resource, then namespace, then name, which is the order lists are served in.
 */
public record ObjectKey(String resource, String namespace, String name) implements Comparable<ObjectKey> {

    /** Sorts after every real name or namespace: names are ASCII. */
    static final String HIGHEST = "\uffff";

    private static final Comparator<ObjectKey> ORDER = Comparator.comparing(ObjectKey::resource)
            .thenComparing(ObjectKey::namespace)
            .thenComparing(ObjectKey::name);

    @Override
    public int compareTo(ObjectKey other) {
        return ORDER.compare(this, other);
    }
}
