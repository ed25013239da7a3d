package io.watchgate.managedfields;

/**
 * One entry of {@code metadata.managedFields}: the fields one manager owns through one kind of write.
 *
 * @param apiVersion the version the fields are named in: the request's
 * @param time       RFC 3339 in seconds, when the manager last changed the object; null when it never has
 * @param subresource "" for the object itself, else the subresource written ({@code status}, {@code scale})
 */
public record ManagedFieldsEntry(String manager, Operation operation, String apiVersion, String time, FieldSet fields,
        String subresource) {

    public enum Operation { Apply, Update }

    /**
     * What makes an entry the same as another: an Update entry per manager, version and subresource; an Apply
     * entry per manager and subresource (applying through another version takes the same entry over).
     */
    public record Key(String manager, Operation operation, String apiVersion, String subresource) {

        public static Key apply(String manager, String subresource) {
            return new Key(manager, Operation.Apply, "", subresource);
        }

        public static Key update(String manager, String apiVersion, String subresource) {
            return new Key(manager, Operation.Update, apiVersion, subresource);
        }
    }

    public Key key() {
        return new Key(manager, operation, operation == Operation.Apply ? "" : apiVersion, subresource);
    }

    ManagedFieldsEntry withFields(FieldSet changed) {
        return new ManagedFieldsEntry(manager, operation, apiVersion, time, changed, subresource);
    }

    ManagedFieldsEntry withTime(String changed) {
        return new ManagedFieldsEntry(manager, operation, apiVersion, changed, fields, subresource);
    }

    /**
     * How a conflict names the entry: {@code "kubectl-create" using v1}, {@code "ctl" with subresource "status"};
     * Apply entries print their manager alone.
     */
    public String printed() {
        StringBuilder printed = new StringBuilder("\"").append(manager).append('"');
        if (!subresource.isEmpty()) {
            printed.append(" with subresource \"").append(subresource).append('"');
        }
        if (operation == Operation.Update) {
            printed.append(" using ").append(apiVersion);
        }
        return printed.toString();
    }
}
