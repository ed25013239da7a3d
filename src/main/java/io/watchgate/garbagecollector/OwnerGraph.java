package io.watchgate.garbagecollector;

import io.watchgate.store.ObjectKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who owns whom, by uid, for every object that names an owner: what lets the collector find an owner's dependents
 * without a scan. Kept by the collector's thread alone, from the store's commits; entries only for objects with
 * owner references, so it is bounded by what the store holds.
 */
final class OwnerGraph {

    private final Map<String, Set<ObjectKey>> dependentsByOwner = new HashMap<>();
    private final Map<ObjectKey, Set<String>> ownersByDependent = new HashMap<>();

    /**
     * Records that {@code dependent} names {@code owners} (none: forgets it).
     *
     * @return the owners it named before and names no longer
     */
    Set<String> put(ObjectKey dependent, Set<String> owners) {
        Set<String> before = owners.isEmpty() ? ownersByDependent.remove(dependent)
                : ownersByDependent.put(dependent, owners);
        Set<String> dropped = new HashSet<>();
        if (before != null) {
            for (String owner : before) {
                if (!owners.contains(owner)) {
                    dropped.add(owner);
                    Set<ObjectKey> dependents = dependentsByOwner.get(owner);
                    if (dependents != null && dependents.remove(dependent) && dependents.isEmpty()) {
                        dependentsByOwner.remove(owner);
                    }
                }
            }
        }
        for (String owner : owners) {
            dependentsByOwner.computeIfAbsent(owner, o -> new HashSet<>()).add(dependent);
        }
        return dropped;
    }

    /** The objects that name {@code owner}, as a copy the caller may keep while the graph changes. */
    List<ObjectKey> dependentsOf(String owner) {
        Set<ObjectKey> dependents = dependentsByOwner.get(owner);
        return dependents == null ? List.of() : List.copyOf(dependents);
    }

    boolean hasDependents(String owner) {
        return dependentsByOwner.containsKey(owner);
    }

    void clear() {
        dependentsByOwner.clear();
        ownersByDependent.clear();
    }

    /** How many objects name an owner. */
    int dependents() {
        return ownersByDependent.size();
    }
}
