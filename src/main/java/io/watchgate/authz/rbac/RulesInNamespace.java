package io.watchgate.authz.rbac;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What a user may do in a namespace, for a SelfSubjectRulesReview's status (kube's {@code RulesFor}): every rule
 * that names resources, every rule that names non-resource URLs (a rule naming both is in both lists, as in kube).
 *
 * @param incomplete      whether some rules could not be resolved (kube's union authorizer sets it on an error)
 * @param evaluationError what went wrong resolving, as kube's aggregate prints it; empty when nothing did
 */
public record RulesInNamespace(List<PolicyRule> resourceRules, List<PolicyRule> nonResourceRules,
        boolean incomplete, String evaluationError) {

    public RulesInNamespace {
        resourceRules = List.copyOf(resourceRules);
        nonResourceRules = List.copyOf(nonResourceRules);
    }

    /**
     * Writes kube's {@code SubjectRulesReviewStatus} fields into {@code status}: {@code resourceRules} (verbs, and
     * apiGroups, resources, resourceNames when not empty), {@code nonResourceRules} (verbs, and nonResourceURLs),
     * {@code incomplete}, and {@code evaluationError} when there is one.
     */
    public void writeTo(ObjectNode status) {
        ArrayNode resources = status.putArray("resourceRules");
        for (PolicyRule rule : resourceRules) {
            ObjectNode shown = resources.addObject();
            list(shown, "verbs", rule.verbs(), true);
            list(shown, "apiGroups", rule.apiGroups(), false);
            list(shown, "resources", rule.resources(), false);
            list(shown, "resourceNames", rule.resourceNames(), false);
        }
        ArrayNode nonResources = status.putArray("nonResourceRules");
        for (PolicyRule rule : nonResourceRules) {
            ObjectNode shown = nonResources.addObject();
            list(shown, "verbs", rule.verbs(), true);
            list(shown, "nonResourceURLs", rule.nonResourceURLs(), false);
        }
        status.put("incomplete", incomplete);
        if (!evaluationError.isEmpty()) {
            status.put("evaluationError", evaluationError);
        }
    }

    private static void list(ObjectNode into, String field, List<String> values, boolean always) {
        if (always || !values.isEmpty()) {
            ArrayNode array = into.putArray(field);
            values.forEach(array::add);
        }
    }
}
