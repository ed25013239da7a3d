package io.watchgate.managedfields;

import java.util.List;

/**
 * A node of an applied configuration that its schema cannot take: a field the schema does not declare, a list
 * item without its keys, two items with the same key. Named by path, as structured-merge-diff names it.
 */
public final class StructureError extends RuntimeException {

    StructureError(List<PathElement> path, String problem) {
        // no stack trace: a lenient walk makes one per malformed list item, and catches it
        super(FieldSet.printed(path) + ": " + problem, null, false, false);
    }
}
