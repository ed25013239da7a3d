package io.watchgate.garbagecollector;

import io.watchgate.store.ObjectKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who owns whom, for every object that names an owner, and how many dependents block each owner's foreground
 * deletion: what lets the collector find an owner's dependents, and tell when an owner may go, without a scan. Kept
 * by the collector's thread alone, from the store's commits; bounded by what the store holds.
 */
final class OwnerGraph {

    /** A dependent as last committed: its uid and its owners, each with whether it blocks that owner. */
    private record Dependent(String uid, Map<OwnerId, Boolean> owners) {
    }

    /**
     * What a commit changed.
     *
     * @param ownersChanged whether the object is new here or names other owners than before
     * @param unblocked     owners it no longer blocks (it let go of them, went, or stopped blocking)
     */
    record Change(boolean ownersChanged, Set<OwnerId> unblocked) {
    }

    private final Map<ObjectKey, Dependent> dependents = new HashMap<>();
    private final Map<OwnerId, Set<ObjectKey>> dependentsByOwner = new HashMap<>();
    private final Map<OwnerId, Integer> blockingByOwner = new HashMap<>();

    /** Records what the object at {@code key} names now: {@code namesOwners} false (or deleted) forgets it. */
    Change put(ObjectKey key, String uid, Map<OwnerId, Boolean> owners, boolean namesOwners) {
        Dependent before = namesOwners ? dependents.put(key, new Dependent(uid, owners)) : dependents.remove(key);
        Map<OwnerId, Boolean> was = before == null ? Map.of() : before.owners();
        Map<OwnerId, Boolean> now = namesOwners ? owners : Map.of();
        Set<OwnerId> unblocked = new HashSet<>();
        for (Map.Entry<OwnerId, Boolean> owner : was.entrySet()) {
            Boolean still = now.get(owner.getKey());
            if (still == null) {
                Set<ObjectKey> named = dependentsByOwner.get(owner.getKey());
                if (named != null && named.remove(key) && named.isEmpty()) {
                    dependentsByOwner.remove(owner.getKey());
                }
            }
            if (blocks(key, owner) && (still == null || !still)) {
                unblocked.add(owner.getKey());
                blockingByOwner.computeIfPresent(owner.getKey(), (o, count) -> count == 1 ? null : count - 1);
            }
        }
        for (Map.Entry<OwnerId, Boolean> owner : now.entrySet()) {
            Boolean previously = was.get(owner.getKey());
            if (previously == null) {
                dependentsByOwner.computeIfAbsent(owner.getKey(), o -> new HashSet<>()).add(key);
            }
            if (blocks(key, owner) && (previously == null || !previously)) {
                blockingByOwner.merge(owner.getKey(), 1, Integer::sum);
            }
        }
        boolean changed = namesOwners && (before == null || !was.equals(now) || !before.uid().equals(uid));
        return new Change(changed, unblocked);
    }

    /** A reference that blocks: an object naming itself holds nothing up. */
    private static boolean blocks(ObjectKey dependent, Map.Entry<OwnerId, Boolean> owner) {
        return owner.getValue() && !owner.getKey().key().equals(dependent);
    }

    /** The objects that name {@code owner}, as a copy the caller may keep while the graph changes. */
    List<ObjectKey> dependentsOf(OwnerId owner) {
        Set<ObjectKey> named = dependentsByOwner.get(owner);
        return named == null ? List.of() : List.copyOf(named);
    }

    boolean hasDependents(OwnerId owner) {
        return dependentsByOwner.containsKey(owner);
    }

    /** Whether a dependent that is still there blocks {@code owner}'s foreground deletion. */
    boolean blocked(OwnerId owner) {
        return blockingByOwner.containsKey(owner);
    }

    /** The uid of the dependent at {@code key}, or null when it names no owner. */
    String uidOf(ObjectKey key) {
        Dependent dependent = dependents.get(key);
        return dependent == null ? null : dependent.uid();
    }

    void clear() {
        dependents.clear();
        dependentsByOwner.clear();
        blockingByOwner.clear();
    }

    /** How many objects name an owner. */
    int dependents() {
        return dependents.size();
    }
}
