package io.watchgate.tables;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The columns kube-apiserver's printers give the rbac types: roles by name and creation time, bindings by the role
 * they grant ({@code ClusterRole/view}) and, with {@code -o wide}, to whom.
 */
final class RbacColumns {

    private RbacColumns() {
    }

    private static final Column CREATED_AT = Column.of("Created At", "date",
            "CreationTimestamp is a timestamp representing the server time when this object was created.",
            (o, now) -> createdAt(o.path("metadata").path("creationTimestamp")));

    private static final Column ROLE = Column.of("Role", "string",
            "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If "
                    + "the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
            (o, now) -> o.path("roleRef").path("kind").asText() + "/" + o.path("roleRef").path("name").asText());

    private static final List<Column> ROLES = List.of(CoreColumns.NAME, CREATED_AT);

    private static final List<Column> BINDINGS = List.of(CoreColumns.NAME, ROLE, CoreColumns.AGE,
            Column.of("Users", "string", "Users in the roleBinding", (o, now) -> subjects(o, "User")).wide(),
            Column.of("Groups", "string", "Groups in the roleBinding", (o, now) -> subjects(o, "Group")).wide(),
            Column.of("ServiceAccounts", "string", "ServiceAccounts in the roleBinding",
                    (o, now) -> subjects(o, "ServiceAccount")).wide());

    /** By group-qualified resource. */
    static final Map<String, List<Column>> BY_RESOURCE = Map.of(
            "roles.rbac.authorization.k8s.io", ROLES,
            "clusterroles.rbac.authorization.k8s.io", ROLES,
            "rolebindings.rbac.authorization.k8s.io", BINDINGS,
            "clusterrolebindings.rbac.authorization.k8s.io", BINDINGS);

    /** Kubernetes prints the time in UTC to the second (time.RFC3339). */
    private static String createdAt(JsonNode timestamp) {
        try {
            return Instant.parse(timestamp.asText()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        } catch (DateTimeParseException e) {
            return timestamp.asText();
        }
    }

    /** rbac.SubjectsStrings: names of the subjects of one kind; a service account as namespace/name. */
    private static String subjects(JsonNode binding, String kind) {
        List<String> names = new ArrayList<>();
        for (JsonNode subject : binding.path("subjects")) {
            if (!subject.path("kind").asText().equals(kind)) {
                continue;
            }
            String name = subject.path("name").asText();
            String namespace = subject.path("namespace").asText();
            names.add(kind.equals("ServiceAccount") && !namespace.isEmpty() ? namespace + "/" + name : name);
        }
        return String.join(", ", names);
    }
}
