package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;
import java.util.List;

/**
 * What kube-apiserver's pkg/apis/rbac/validation checks beyond metadata, with its field paths and messages: rules
 * that say what they allow, bindings whose roleRef names a role of a kind they may bind and whose subjects are
 * users, groups or service accounts, and a roleRef that never changes (a binding is a grant of one role; to grant
 * another, one deletes and creates, which authorization sees as such).
 *
 * <p>The object has been through typed decoding (ProtobufObjects.conform), so each field is of its declared type
 * when present; a field that is not is read as absent rather than trusted.
 */
final class RbacObjectRules {

    private static final List<String> SUBJECT_KINDS = List.of("ServiceAccount", "User", "Group");

    private RbacObjectRules() {
    }

    /** @param old the object as stored before this update, or null on create */
    static void check(ResourceType type, JsonNode object, JsonNode old, Causes causes) {
        switch (type.kind()) {
            case "Role" -> rules(object, true, causes);
            case "ClusterRole" -> {
                rules(object, false, causes);
                aggregationRule(object.path("aggregationRule"), causes);
            }
            case "RoleBinding" -> binding(object, old, List.of("Role", "ClusterRole"), true, causes);
            case "ClusterRoleBinding" -> binding(object, old, List.of("ClusterRole"), false, causes);
            default -> {
            }
        }
    }

    private static void rules(JsonNode object, boolean namespaced, Causes causes) {
        JsonNode rules = object.path("rules");
        for (int i = 0; i < rules.size(); i++) {
            policyRule(rules.get(i), namespaced, "rules[" + i + "]", causes);
        }
    }

    /** ValidatePolicyRule: a rule allows some verbs, either on non-resource URLs or on resources of groups. */
    static void policyRule(JsonNode rule, boolean namespaced, String path, Causes causes) {
        if (rule.path("verbs").isEmpty()) {
            causes.add(Cause.required(path + ".verbs", "verbs must contain at least one value"));
        }
        JsonNode urls = rule.path("nonResourceURLs");
        if (!urls.isEmpty()) {
            if (namespaced) {
                causes.add(Cause.invalid(path + ".nonResourceURLs", GoSyntax.strings(urls),
                        "namespaced rules cannot apply to non-resource URLs"));
            }
            if (!rule.path("apiGroups").isEmpty() || !rule.path("resources").isEmpty()
                    || !rule.path("resourceNames").isEmpty()) {
                causes.add(Cause.invalid(path + ".nonResourceURLs", GoSyntax.strings(urls),
                        "rules cannot apply to both regular resources and non-resource URLs"));
            }
            return;
        }
        if (rule.path("apiGroups").isEmpty()) {
            causes.add(Cause.required(path + ".apiGroups", "resource rules must supply at least one api group"));
        }
        if (rule.path("resources").isEmpty()) {
            causes.add(Cause.required(path + ".resources", "resource rules must supply at least one resource"));
        }
    }

    /** An aggregation rule selects at least one set of ClusterRoles, each by a valid label selector. */
    private static void aggregationRule(JsonNode rule, Causes causes) {
        if (!rule.isObject()) {
            return; // absent or null: not aggregated
        }
        String path = "aggregationRule.clusterRoleSelectors";
        JsonNode selectors = rule.path("clusterRoleSelectors");
        if (selectors.isEmpty()) {
            causes.add(Cause.required(path, "at least one clusterRoleSelector required if aggregationRule is "
                    + "non-nil"));
        }
        for (int i = 0; i < selectors.size(); i++) {
            LabelSelectorRules.check(selectors.get(i), path + "[" + i + "]", causes);
        }
    }

    private static void binding(JsonNode binding, JsonNode old, List<String> roleKinds, boolean namespaced,
            Causes causes) {
        JsonNode roleRef = binding.path("roleRef");
        String apiGroup = text(roleRef.path("apiGroup"));
        if (!apiGroup.equals(RbacTypes.GROUP)) {
            causes.add(Cause.notSupported("roleRef.apiGroup", apiGroup, List.of(RbacTypes.GROUP)));
        }
        String kind = text(roleRef.path("kind"));
        if (!roleKinds.contains(kind)) {
            causes.add(Cause.notSupported("roleRef.kind", kind, roleKinds));
        }
        String name = text(roleRef.path("name"));
        if (name.isEmpty()) {
            causes.add(Cause.required("roleRef.name", ""));
        } else {
            String problem = IdentifierSyntax.PATH_SEGMENT.problem(name);
            if (problem != null) {
                causes.add(Cause.invalid("roleRef.name", name, problem));
            }
        }
        JsonNode subjects = binding.path("subjects");
        for (int i = 0; i < subjects.size(); i++) {
            subject(subjects.get(i), namespaced, "subjects[" + i + "]", causes);
        }
        if (old != null && !sameRoleRef(old.path("roleRef"), roleRef)) {
            causes.add(Cause.invalid("roleRef", GoSyntax.roleRef(apiGroup, kind, name), "cannot change roleRef"));
        }
    }

    /** ValidateRoleBindingSubject. */
    static void subject(JsonNode subject, boolean namespaced, String path, Causes causes) {
        String name = text(subject.path("name"));
        String apiGroup = text(subject.path("apiGroup"));
        if (name.isEmpty()) {
            causes.add(Cause.required(path + ".name", ""));
        }
        String kind = text(subject.path("kind"));
        switch (kind) {
            case "ServiceAccount" -> {
                String problem = name.isEmpty() ? null : IdentifierSyntax.DNS1123_SUBDOMAIN.problem(name);
                if (problem != null) {
                    causes.add(Cause.invalid(path + ".name", name, problem));
                }
                if (!apiGroup.isEmpty()) {
                    causes.add(Cause.notSupported(path + ".apiGroup", apiGroup, List.of("")));
                }
                if (!namespaced && text(subject.path("namespace")).isEmpty()) {
                    causes.add(Cause.required(path + ".namespace", ""));
                }
            }
            case "User", "Group" -> {
                if (!apiGroup.equals(RbacTypes.GROUP)) {
                    causes.add(Cause.notSupported(path + ".apiGroup", apiGroup, List.of(RbacTypes.GROUP)));
                }
            }
            default -> causes.add(Cause.notSupported(path + ".kind", kind, SUBJECT_KINDS));
        }
    }

    private static boolean sameRoleRef(JsonNode old, JsonNode updated) {
        for (String field : new String[] { "apiGroup", "kind", "name" }) {
            if (!text(old.path(field)).equals(text(updated.path(field)))) {
                return false;
            }
        }
        return true;
    }

    private static String text(JsonNode node) {
        return node.isTextual() ? node.textValue() : "";
    }
}
