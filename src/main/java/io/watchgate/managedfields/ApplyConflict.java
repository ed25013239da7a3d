package io.watchgate.managedfields;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An apply that would change fields other managers own: each field with its owner, to be answered 409 as
 * kube-apiserver answers it (see {@link #message()}).
 */
public final class ApplyConflict extends RuntimeException {

    /** One field another manager owns. */
    public record Conflict(ManagedFieldsEntry owner, List<PathElement> path) {
        public String field() {
            return FieldSet.printed(path);
        }
    }

    private final List<Conflict> conflicts;

    ApplyConflict(Map<ManagedFieldsEntry.Key, FieldSet> byOwner, Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries) {
        super(null, null, false, false);
        List<Conflict> all = new ArrayList<>();
        byOwner.entrySet().stream()
                .sorted(Map.Entry.comparingByKey((a, b) -> entries.get(a).printed().compareTo(entries.get(b).printed())))
                .forEach(owned -> owned.getValue().paths().forEach(path ->
                        all.add(new Conflict(entries.get(owned.getKey()), path))));
        this.conflicts = List.copyOf(all);
    }

    public List<Conflict> conflicts() {
        return conflicts;
    }

    /**
     * {@code Apply failed with 1 conflict: conflict with "m" using v1: .data.a}; with several, a line per manager
     * and one per field below it.
     */
    @Override
    public String getMessage() {
        return message();
    }

    public String message() {
        if (conflicts.size() == 1) {
            Conflict only = conflicts.get(0);
            return "Apply failed with 1 conflict: conflict with " + only.owner().printed() + ": " + only.field();
        }
        StringBuilder message = new StringBuilder("Apply failed with ").append(conflicts.size()).append(" conflicts: ");
        ManagedFieldsEntry previous = null;
        for (Conflict conflict : conflicts) {
            if (conflict.owner() != previous) {
                message.append(previous == null ? "" : "\n").append("conflicts with ")
                        .append(conflict.owner().printed()).append(':');
                previous = conflict.owner();
            }
            message.append("\n- ").append(conflict.field());
        }
        return message.toString();
    }
}
