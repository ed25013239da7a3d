package io.watchgate.authz.rbac;

import io.watchgate.authz.Attributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules some bindings grant one user, as the roles' own rule lists (shared with the snapshot, not copied), and
 * what went wrong resolving them (kube's resolution errors: a binding to a role that does not exist).
 *
 * @param errors distinct messages, in the order met, at most {@link #MAX_ERRORS}
 */
record RuleSet(List<List<PolicyRule>> grants, List<String> errors) {

    /** So that a user bound many times to missing roles costs bounded memory and a bounded 403 message. */
    static final int MAX_ERRORS = 32;

    static final RuleSet NONE = new RuleSet(List.of(), List.of());

    boolean allows(Attributes request) {
        for (List<PolicyRule> rules : grants) {
            for (PolicyRule rule : rules) {
                if (rule.allows(request)) {
                    return true;
                }
            }
        }
        return false;
    }

    void forEachRule(java.util.function.Consumer<PolicyRule> action) {
        grants.forEach(rules -> rules.forEach(action));
    }

    /** Kube's error aggregate as text: one error as it is, several (duplicates once) as {@code [a, b]}. */
    static String aggregate(List<String> errors) {
        Set<String> distinct = new LinkedHashSet<>(errors);
        if (distinct.size() == 1) {
            return distinct.iterator().next();
        }
        return "[" + String.join(", ", distinct) + "]";
    }

    /** Collects a rule set. */
    static final class Builder {
        private final List<List<PolicyRule>> grants = new ArrayList<>();
        private final Set<String> errors = new LinkedHashSet<>();

        void grant(List<PolicyRule> rules) {
            if (!rules.isEmpty()) {
                grants.add(rules);
            }
        }

        void error(String message) {
            if (errors.size() < MAX_ERRORS) {
                errors.add(message);
            }
        }

        RuleSet build() {
            return grants.isEmpty() && errors.isEmpty() ? NONE
                    : new RuleSet(List.copyOf(grants), List.copyOf(errors));
        }
    }
}
