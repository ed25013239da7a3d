package io.watchgate.authz.rbac;

import io.watchgate.authn.UserInfo;
import java.util.List;
import java.util.TreeSet;

/** Kube's text for a refused escalation, byte for byte: clients and operators match on it. */
final class EscalationMessage {

    /** Missing rules listed in a message at most. */
    static final int MAX_LISTED = 100;

    private EscalationMessage() {
    }

    /**
     * {@code user "bob" (groups=["g1" "system:authenticated"]) is attempting to grant RBAC permissions not currently
     * held:} then each missing rule's compact form, sorted and once each, one a line; then the errors met resolving
     * the user's own rules, if any.
     *
     * @param missing the compacted missing rules, or null when there were too many to check
     */
    static String of(UserInfo user, List<PolicyRule> missing, List<String> resolutionErrors) {
        StringBuilder message = new StringBuilder("user ").append(GoQuoted.of(user.name())).append(" (groups=")
                .append(GoQuoted.list(user.groups())).append(") is attempting to grant RBAC permissions ");
        if (missing == null) {
            // kube would list them; there are too many to find (see Coverage.MAX_ATOMS)
            message.append("not currently held: the rules requested break down into more than ")
                    .append(Coverage.MAX_ATOMS).append(" single permissions, too many to check");
        } else {
            // kube lists them all, sorted; past a hundred, the first hundred as found and a count, so that a role
            // of 10,000 missing permissions does not make a message of 10,000 lines before it is clipped
            TreeSet<String> descriptions = new TreeSet<>();
            missing.stream().limit(MAX_LISTED).forEach(rule -> descriptions.add(rule.compactString()));
            message.append("not currently held:\n").append(String.join("\n", descriptions));
            if (missing.size() > MAX_LISTED) {
                message.append("\n... and ").append(missing.size() - MAX_LISTED).append(" more");
            }
        }
        if (!resolutionErrors.isEmpty()) {
            // kube prints a one-element []error holding the aggregate: brackets around it
            message.append("; resolution errors: [").append(RuleSet.aggregate(resolutionErrors)).append(']');
        }
        return message.toString();
    }
}
