package io.watchgate.managedfields;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A set of paths through an object, kept as a trie: structured-merge-diff's {@code fieldpath.Set}. A node is a
 * member (the path to it is in the set) and may have children; a node that is neither is never kept. Sets are
 * built by one owner with {@link #insert} and the builder methods, then only read: the operations return new sets.
 */
public final class FieldSet {

    private boolean member;
    private final TreeMap<PathElement, FieldSet> children = new TreeMap<>();

    public static FieldSet empty() {
        return new FieldSet();
    }

    /** Adds {@code path} (from this node) to the set. */
    public void insert(List<PathElement> path) {
        FieldSet node = this;
        for (PathElement element : path) {
            node = node.children.computeIfAbsent(element, e -> new FieldSet());
        }
        node.member = true;
    }

    /** The child at {@code element}, made when missing: for builders only. */
    FieldSet descend(PathElement element) {
        return children.computeIfAbsent(element, e -> new FieldSet());
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

    Map<PathElement, FieldSet> children() {
        return children;
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

    private void addAll(FieldSet other) {
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
                difference.children.put(element, kept);
            }
        });
        return difference;
    }

    public FieldSet intersection(FieldSet other) {
        FieldSet intersection = new FieldSet();
        intersection.member = member && other.member;
        children.forEach((element, child) -> {
            FieldSet both = other.children.get(element);
            if (both != null) {
                FieldSet shared = child.intersection(both);
                if (!shared.isEmpty()) {
                    intersection.children.put(element, shared);
                }
            }
        });
        return intersection;
    }

    /** The paths of this set that neither are in {@code other} nor lie below one of its paths. */
    public FieldSet recursiveDifference(FieldSet other) {
        FieldSet difference = new FieldSet();
        difference.member = member && !other.member;
        children.forEach((element, child) -> {
            FieldSet removed = other.children.get(element);
            if (removed == null) {
                difference.children.put(element, child.copy());
            } else if (!removed.member) {
                FieldSet kept = child.recursiveDifference(removed);
                if (!kept.isEmpty()) {
                    difference.children.put(element, kept);
                }
            }
        });
        return difference;
    }

    public FieldSet copy() {
        FieldSet copy = new FieldSet();
        copy.member = member;
        children.forEach((element, child) -> copy.children.put(element, child.copy()));
        return copy;
    }

    /** Every path in the set, in structured-merge-diff's order (a parent before its children). */
    public List<List<PathElement>> paths() {
        List<List<PathElement>> paths = new ArrayList<>();
        walk(new ArrayList<>(), paths::add);
        return paths;
    }

    private void walk(List<PathElement> prefix, Consumer<List<PathElement>> visit) {
        if (member) {
            visit.accept(List.copyOf(prefix));
        }
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
