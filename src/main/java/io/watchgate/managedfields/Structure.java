package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a schema says of a node that merging and field tracking need, as structured-merge-diff's schema: a scalar, a
 * map (a struct with declared fields, a map of one element type, or both), or a list, each either granular or
 * atomic (replaced and owned whole); lists are sets or maps keyed by some of their items' fields. A node no schema
 * describes is {@link #UNTYPED}: its shape is deduced from its value, maps granular and lists atomic.
 *
 * <p>Built once per schema by {@link StructureReader}; the builder fills a structure after it is made, so that
 * recursive definitions can refer to themselves.
 */
public final class Structure {

    public enum Shape { SCALAR, MAP, LIST, UNTYPED }

    public enum ListType { ATOMIC, SET, MAP }

    public static final Structure UNTYPED = new Structure(Shape.UNTYPED);
    public static final Structure SCALAR = new Structure(Shape.SCALAR);

    private final Shape shape;
    boolean atomic;
    final Map<String, Structure> fields = new HashMap<>();
    /** The map's values beyond the declared fields (null: none are allowed), or the list's items. */
    Structure element;
    ListType listType = ListType.ATOMIC;
    List<String> keys = List.of();
    /** The default the schema gives a scalar, which a key field missing from a list item takes. */
    JsonNode defaultValue;

    Structure(Shape shape) {
        this.shape = shape;
    }

    public Shape shape() {
        return shape;
    }

    /** Replaced and owned whole: a scalar, an atomic map or struct, an atomic list. */
    boolean atomic() {
        return shape == Shape.SCALAR || atomic || shape == Shape.LIST && listType == ListType.ATOMIC;
    }

    /** Whether {@code name} is a declared field of this struct, as opposed to a key of a map. */
    boolean declares(String name) {
        return fields.containsKey(name);
    }

    /** The structure of the member {@code name}: its field's, else the map's element's; null when not allowed. */
    Structure member(String name) {
        Structure field = fields.get(name);
        return field != null ? field : element;
    }

    Structure element() {
        return element == null ? UNTYPED : element;
    }

    ListType listType() {
        return listType;
    }

    List<String> keys() {
        return keys;
    }

    /** The structure a value takes here: an untyped node is a granular map, an atomic list or a scalar by its value. */
    Structure resolve(JsonNode value) {
        if (shape != Shape.UNTYPED || value == null) {
            return this;
        }
        if (value.isObject()) {
            return DEDUCED_MAP;
        }
        if (value.isArray()) {
            return DEDUCED_LIST;
        }
        return SCALAR;
    }

    /**
     * Whether {@code value} has the JSON kind this structure expects. A null is an empty map or list, as
     * structured-merge-diff reads it: merged into, it keeps what is there; compared, its absent members are removed.
     */
    boolean fits(JsonNode value) {
        return switch (shape) {
            case MAP -> value.isObject() || value.isNull();
            case LIST -> value.isArray() || value.isNull();
            case SCALAR -> !value.isContainerNode();
            case UNTYPED -> true;
        };
    }

    private static final Structure DEDUCED_MAP = new Structure(Shape.MAP);
    private static final Structure DEDUCED_LIST = new Structure(Shape.LIST);

    static {
        DEDUCED_MAP.element = UNTYPED;
        DEDUCED_LIST.element = UNTYPED;
    }
}
