package io.watchgate.authz.rbac;

import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.authz.Authorizer;
import io.watchgate.authz.Decision;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import java.util.ArrayList;
import java.util.List;

/**
 * Kube-apiserver's RBAC authorizer: a request is allowed when a rule of a role bound to its user allows it, the
 * ClusterRoleBindings' roles first, then those of the RoleBindings in the request's namespace. A denial says what
 * went wrong resolving the user's roles ({@code RBAC: clusterrole.rbac.authorization.k8s.io "x" not found}), if
 * anything did. Nothing is special here about system:masters: composing authorizers is the caller's business.
 *
 * <p>Typed as itself only, so that it never competes with the composed authorizer where an {@link Authorizer} is
 * injected.
 *
 * <p>Runs on an event loop for every request: the user's rules are compiled once per policy snapshot
 * ({@link CompiledPolicy}), so a decision is a map lookup and a scan of the rules the user holds.
 */
@ApplicationScoped
@Typed(RbacAuthorizer.class)
public class RbacAuthorizer implements Authorizer {

    private final PolicyFeed feed;

    RbacAuthorizer(PolicyFeed feed) {
        this.feed = feed;
    }

    @Override
    public Decision authorize(Attributes request) {
        UserRules rules = feed.current().rulesOf(request.user());
        RuleSet clusterWide = rules.clusterWide();
        if (clusterWide.allows(request)) {
            return Decision.ALLOW;
        }
        RuleSet local = rules.inNamespace(request.namespace());
        if (local.allows(request)) {
            return Decision.ALLOW;
        }
        if (clusterWide.errors().isEmpty() && local.errors().isEmpty()) {
            return Decision.DENY;
        }
        return new Decision(false, "RBAC: " + RuleSet.aggregate(errors(clusterWide, local)));
    }

    /**
     * Kube's {@code RulesFor}: the rules {@code user} holds in {@code namespace}, cluster-wide ones included (only
     * those for the empty namespace), and what could not be resolved.
     */
    public RulesInNamespace rulesFor(UserInfo user, String namespace) {
        UserRules rules = feed.current().rulesOf(user);
        RuleSet clusterWide = rules.clusterWide();
        RuleSet local = rules.inNamespace(namespace);
        List<PolicyRule> resourceRules = new ArrayList<>();
        List<PolicyRule> nonResourceRules = new ArrayList<>();
        for (RuleSet set : List.of(clusterWide, local)) {
            set.forEachRule(rule -> {
                if (!rule.resources().isEmpty()) {
                    resourceRules.add(rule);
                }
                if (!rule.nonResourceURLs().isEmpty()) {
                    nonResourceRules.add(rule);
                }
            });
        }
        List<String> errors = errors(clusterWide, local);
        return new RulesInNamespace(resourceRules, nonResourceRules, !errors.isEmpty(),
                errors.isEmpty() ? "" : RuleSet.aggregate(errors));
    }

    /** Every rule {@code user} holds in {@code namespace}, and the resolution errors (escalation checks). */
    OwnedRules ownedRules(UserInfo user, String namespace) {
        UserRules rules = feed.current().rulesOf(user);
        RuleSet clusterWide = rules.clusterWide();
        RuleSet local = rules.inNamespace(namespace);
        List<PolicyRule> all = new ArrayList<>();
        clusterWide.forEachRule(all::add);
        local.forEachRule(all::add);
        return new OwnedRules(all, errors(clusterWide, local));
    }

    /** The rules of the role a binding in {@code namespace} refers to; null when there is no such role. */
    List<PolicyRule> roleReferenceRules(RoleRef roleRef, String namespace) {
        return RuleResolver.roleReferenceRules(feed.current().snapshot(), roleRef, namespace);
    }

    record OwnedRules(List<PolicyRule> rules, List<String> errors) {
    }

    private static List<String> errors(RuleSet clusterWide, RuleSet local) {
        if (local.errors().isEmpty()) {
            return clusterWide.errors();
        }
        if (clusterWide.errors().isEmpty()) {
            return local.errors();
        }
        List<String> errors = new ArrayList<>(clusterWide.errors());
        errors.addAll(local.errors());
        return errors;
    }
}
