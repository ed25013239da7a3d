package io.watchgate.status;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Where a value sits in an object ({@code spec.items[3].name}), as a walk over the object goes: a step costs one
 * small object whatever the names, and the text is built only when a problem there is reported. A walk that
 * built the text at every step would copy a 50,000-character key once for each of a million array elements.
 */
public final class FieldPath {

    /** The longest text a path renders to (then "..."): its names come from the body, and may be megabytes. */
    static final int MAX_TEXT = 4096;

    /** The object itself: its fields' paths have no leading dot. */
    public static final FieldPath ROOT = new FieldPath(null, null, -1);

    private final FieldPath parent;
    private final String name; // a field (".name"), or with index -2 a key ("[name]")
    private final int index; // an array element's ("[3]"), else -1 (field) or -2 (key)

    private FieldPath(FieldPath parent, String name, int index) {
        this.parent = parent;
        this.name = name;
        this.index = index;
    }

    /** {@code path.name}, or {@code name} at the root. */
    public FieldPath field(String field) {
        return new FieldPath(this, field, -1);
    }

    /** {@code path[key]}: an entry of a map, named by its key. */
    public FieldPath key(String key) {
        return new FieldPath(this, key, -2);
    }

    /** {@code path[i]}. */
    public FieldPath index(int i) {
        return new FieldPath(this, null, i);
    }

    /** A path as text, to start from: {@code spec.versions[0].schema}. */
    public static FieldPath of(String text) {
        return ROOT.field(text);
    }

    /** As text, cut after {@link #MAX_TEXT} characters: a cause shows less of it anyway. */
    @Override
    public String toString() {
        Deque<FieldPath> steps = new ArrayDeque<>();
        for (FieldPath step = this; step.parent != null; step = step.parent) {
            steps.push(step);
        }
        StringBuilder text = new StringBuilder();
        for (FieldPath step : steps) {
            if (step.index >= 0) {
                text.append('[').append(step.index).append(']');
            } else if (step.index == -2) {
                appendCut(text.append('['), step.name).append(']');
            } else {
                appendCut(text.append(text.isEmpty() ? "" : "."), step.name);
            }
            if (text.length() >= MAX_TEXT) {
                return text.append(Clip.MARK).toString();
            }
        }
        return text.toString();
    }

    private static StringBuilder appendCut(StringBuilder text, String name) {
        return text.append(name, 0, Math.min(name.length(), Math.max(0, MAX_TEXT - text.length())));
    }
}
