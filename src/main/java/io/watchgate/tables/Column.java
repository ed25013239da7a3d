package io.watchgate.tables;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.BiFunction;

/**
 * One column of a server-side Table: its definition as Kubernetes describes it, and how to compute its cell.
 *
 * @param type     "string", "integer", "number", "boolean" or "date" (OpenAPI types, as Kubernetes uses them)
 * @param format   "name" for the column that names the object, else ""
 * @param priority 0 for columns kubectl always shows, 1 for those it shows with {@code -o wide}
 * @param cell     the cell's value (a String, Long or Boolean) for an object, given the current time
 */
record Column(String name, String type, String format, String description, int priority,
        BiFunction<JsonNode, java.time.Instant, Object> cell) {

    static Column of(String name, String type, String description, BiFunction<JsonNode, java.time.Instant, Object> cell) {
        return new Column(name, type, "", description, 0, cell);
    }

    Column wide() {
        return new Column(name, type, format, description, 1, cell);
    }
}
