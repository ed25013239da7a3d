package io.watchgate.authz.rbac;

import java.util.List;

/**
 * What a user may do in a namespace, for a SelfSubjectRulesReview's status (kube's {@code RulesFor}): every rule
 * that names resources, every rule that names non-resource URLs (a rule naming both is in both lists, as in kube).
 *
 * @param incomplete      whether some rules could not be resolved (kube's union authorizer sets it on an error)
 * @param evaluationError what went wrong resolving, as kube's aggregate prints it; empty when nothing did
 */
public record RulesReview(List<PolicyRule> resourceRules, List<PolicyRule> nonResourceRules, boolean incomplete,
        String evaluationError) {

    public RulesReview {
        resourceRules = List.copyOf(resourceRules);
        nonResourceRules = List.copyOf(nonResourceRules);
    }
}
