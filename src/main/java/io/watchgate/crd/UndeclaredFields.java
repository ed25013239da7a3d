package io.watchgate.crd;

import io.watchgate.status.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of an object its schema does not declare, as a walk finds them: the paths of the first few as text,
 * and how many there are in all (a body may hold a quarter of a million).
 */
public final class UndeclaredFields {

    private final int max;
    private final List<String> first = new ArrayList<>();
    private long count;

    /** @param max how many paths to keep as text */
    public UndeclaredFields(int max) {
        this.max = max;
    }

    /**
     * Counts the field {@code name} at {@code path}, and keeps its path when fewer than {@code max} are kept. A name
     * starting with '$' is no field but a strategic merge patch's directive ($patch, $setElementOrder/...).
     */
    public void add(FieldPath path, String name) {
        if (name.startsWith("$")) {
            return;
        }
        count++;
        if (first.size() < max) {
            first.add(path.toString());
        }
    }

    /** The paths kept, in the order found: at most {@code max}. */
    public List<String> first() {
        return List.copyOf(first);
    }

    /** How many fields were found, kept or not. */
    public long count() {
        return count;
    }
}
