package io.watchgate.managedfields;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A set of paths through an object, kept as a trie: structured-merge-diff's {@code fieldpath.Set}. A node is a
 * member (the path to it is in the set) and may have children; a node that is neither is never kept. Sets are
 * built by one owner with {@link #insert} and the package's in-place methods ({@code addAll}, {@code removeAll},
 * {@code removeBelow}: no copy of a set that may hold a node per field of a large object), then only read; the
 * public operations return new sets.
 */
public final class FieldSet {

    private static final TreeMap<PathElement, FieldSet> NONE = new TreeMap<>();

    private boolean member;
    /** Made on the first child: most nodes are leaves, and a set may have a node per field of a large object. */
    private TreeMap<PathElement, FieldSet> children = NONE;

    public static FieldSet empty() {
        return new FieldSet();
    }

    /** Adds {@code path} (from this node) to the set. */
    public void insert(List<PathElement> path) {
        FieldSet node = this;
        for (PathElement element : path) {
            node = node.descend(element);
        }
        node.member = true;
    }

    /** The child at {@code element}, made when missing: for builders only. */
    FieldSet descend(PathElement element) {
        if (children == NONE) {
            children = new TreeMap<>();
        }
        return children.computeIfAbsent(element, e -> new FieldSet());
    }

    /** Puts {@code child} at {@code element}: for builders only. */
    void put(PathElement element, FieldSet child) {
        if (children == NONE) {
            children = new TreeMap<>();
        }
        children.put(element, child);
    }

    /** Takes away the child at {@code element} (one left empty by a builder). */
    void removeChild(PathElement element) {
        if (children != NONE) {
            children.remove(element);
        }
    }

    void markMember() {
        member = true;
    }

    public boolean isMember() {
        return member;
    }

    public boolean isEmpty() {
        return !member && children.isEmpty();
    }

    /** The part of the set below {@code element}; empty when there is none. */
    public FieldSet child(PathElement element) {
        FieldSet child = children.get(element);
        return child == null ? EMPTY : child;
    }

    /** The children, in order; read only. */
    Map<PathElement, FieldSet> children() {
        return java.util.Collections.unmodifiableMap(children);
    }

    /** Whether {@code path} (from this node) is in the set. */
    public boolean has(List<PathElement> path) {
        FieldSet node = this;
        for (PathElement element : path) {
            node = node.children.get(element);
            if (node == null) {
                return false;
            }
        }
        return node.member;
    }

    public FieldSet union(FieldSet other) {
        FieldSet union = copy();
        union.addAll(other);
        return union;
    }

    /** Adds {@code other}'s paths to this set, which the caller builds (an accumulator: no copy per addition). */
    void addAll(FieldSet other) {
        member |= other.member;
        other.children.forEach((element, child) -> descend(element).addAll(child));
    }

    /** The paths of this set that {@code other} does not have. */
    public FieldSet difference(FieldSet other) {
        FieldSet difference = new FieldSet();
        difference.member = member && !other.member;
        children.forEach((element, child) -> {
            FieldSet kept = child.difference(other.child(element));
            if (!kept.isEmpty()) {
                difference.put(element, kept);
            }
        });
        return difference;
    }

    /**
     * Takes {@code other}'s paths out of this set, which the caller builds (as {@link #difference}, without a
     * copy).
     */
    void removeAll(FieldSet other) {
        remove(other, false);
    }

    /** Takes {@code other}'s paths and all that lie below them out of this set, which the caller builds. */
    void removeBelow(FieldSet other) {
        remove(other, true);
    }

    /**
     * Walks the smaller of the two sets' children at each level: a removal is applied to every entry of an object's
     * managedFields, so a large removal must cost a small entry little, and a small removal a large entry little.
     */
    private void remove(FieldSet other, boolean below) {
        if (other.member) {
            member = false;
            if (below) {
                children = NONE;
                return;
            }
        }
        if (children == NONE || other.children == NONE) {
            return;
        }
        if (children.size() <= other.children.size()) {
            for (Iterator<Map.Entry<PathElement, FieldSet>> own = children.entrySet().iterator(); own.hasNext();) {
                Map.Entry<PathElement, FieldSet> entry = own.next();
                FieldSet removed = other.children.get(entry.getKey());
                if (removed != null && entry.getValue().removedBy(removed, below)) {
                    own.remove();
                }
            }
        } else {
            other.children.forEach((element, removed) -> {
                FieldSet child = children.get(element);
                if (child != null && child.removedBy(removed, below)) {
                    children.remove(element);
                }
            });
        }
    }

    /** @return whether nothing is left of this set once {@code removed} is taken out of it */
    private boolean removedBy(FieldSet removed, boolean below) {
        remove(removed, below);
        return isEmpty();
    }

    public FieldSet intersection(FieldSet other) {
        FieldSet intersection = new FieldSet();
        intersection.member = member && other.member;
        children.forEach((element, child) -> {
            FieldSet both = other.children.get(element);
            if (both != null) {
                FieldSet shared = child.intersection(both);
                if (!shared.isEmpty()) {
                    intersection.put(element, shared);
                }
            }
        });
        return intersection;
    }

    public FieldSet copy() {
        FieldSet copy = new FieldSet();
        copy.member = member;
        children.forEach((element, child) -> copy.put(element, child.copy()));
        return copy;
    }

    /**
     * Every path in the set, in structured-merge-diff's order: at each level the members there, then what lies
     * below each child, in element order.
     */
    public List<List<PathElement>> paths() {
        List<List<PathElement>> paths = new ArrayList<>();
        walk(new ArrayList<>(), paths::add);
        return paths;
    }

    private void walk(List<PathElement> prefix, Consumer<List<PathElement>> visit) {
        children.forEach((element, child) -> {
            if (child.member) {
                prefix.add(element);
                visit.accept(List.copyOf(prefix));
                prefix.remove(prefix.size() - 1);
            }
        });
        children.forEach((element, child) -> {
            prefix.add(element);
            child.walk(prefix, visit);
            prefix.remove(prefix.size() - 1);
        });
    }

    /** A path as structured-merge-diff prints it in conflicts: {@code .spec.containers[name="app"].image}. */
    public static String printed(List<PathElement> path) {
        StringBuilder printed = new StringBuilder();
        path.forEach(printed::append);
        return printed.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FieldSet set && set.member == member && set.children.equals(children);
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(member) * 31 + children.hashCode();
    }

    @Override
    public String toString() {
        return FieldsV1.encode(this).toString();
    }

    private static final FieldSet EMPTY = new FieldSet();
}
