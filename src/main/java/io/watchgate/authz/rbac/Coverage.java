package io.watchgate.authz.rbac;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kube's {@code Covers} (component-helpers policy_comparator.go): whether an owner's rules cover the rules asked for.
 * Each asked rule is broken into atoms of one group, resource, verb and name (or one URL and verb), and each atom
 * must be covered by a single owner rule. The breakdown is a product, which a hostile role can make astronomic from a
 * small body: a rule one owner rule covers whole is not broken down (same answer, see {@link #ruleCovers}), and past
 * {@link #MAX_ATOMS} atoms the answer is "too large to check" rather than hours of work.
 */
final class Coverage {

    static final int MAX_ATOMS = 10_000;

    /**
     * The atoms not covered, or null when checking would take more than {@link #MAX_ATOMS} atoms.
     */
    static List<PolicyRule> uncovered(List<PolicyRule> owner, List<PolicyRule> asked) {
        List<PolicyRule> toBreak = new ArrayList<>();
        long atoms = 0;
        for (PolicyRule rule : asked) {
            if (!coveredByOne(owner, rule)) {
                toBreak.add(rule);
                atoms += atomCount(rule);
                if (atoms > MAX_ATOMS) {
                    return null;
                }
            }
        }
        List<PolicyRule> missing = new ArrayList<>();
        for (PolicyRule rule : toBreak) {
            for (PolicyRule atom : breakdown(rule)) {
                if (!coveredByOne(owner, atom)) {
                    missing.add(atom);
                }
            }
        }
        return missing;
    }

    private static boolean coveredByOne(List<PolicyRule> owner, PolicyRule rule) {
        for (PolicyRule ownerRule : owner) {
            if (ruleCovers(ownerRule, rule)) {
                return true;
            }
        }
        return false;
    }

    private static long atomCount(PolicyRule rule) {
        long verbs = rule.verbs().size();
        long resourceAtoms = saturated(saturated(rule.apiGroups().size(), rule.resources().size()),
                saturated(verbs, Math.max(1, rule.resourceNames().size())));
        return resourceAtoms + saturated(rule.nonResourceURLs().size(), verbs);
    }

    private static long saturated(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / 4 / a ? Long.MAX_VALUE / 4 : a * b;
    }

    /** Kube's {@code BreakdownRule}, in its order: group, resource, verb, name; then URL, verb. */
    static List<PolicyRule> breakdown(PolicyRule rule) {
        List<PolicyRule> atoms = new ArrayList<>();
        for (String group : rule.apiGroups()) {
            for (String resource : rule.resources()) {
                for (String verb : rule.verbs()) {
                    if (rule.resourceNames().isEmpty()) {
                        atoms.add(new PolicyRule(List.of(verb), List.of(group), List.of(resource), List.of(),
                                List.of()));
                    } else {
                        for (String name : rule.resourceNames()) {
                            atoms.add(new PolicyRule(List.of(verb), List.of(group), List.of(resource),
                                    List.of(name), List.of()));
                        }
                    }
                }
            }
        }
        for (String url : rule.nonResourceURLs()) {
            for (String verb : rule.verbs()) {
                atoms.add(new PolicyRule(List.of(verb), List.of(), List.of(), List.of(), List.of(url)));
            }
        }
        return atoms;
    }

    /**
     * Kube's {@code ruleCovers}. Sound for a whole rule too: each test only gets easier for a part of the rule, so an
     * owner rule covering the whole covers each of its atoms.
     */
    static boolean ruleCovers(PolicyRule owner, PolicyRule sub) {
        boolean verbs = owner.verbs().contains(PolicyRule.ALL) || containsAll(owner.verbs(), sub.verbs());
        boolean groups = owner.apiGroups().contains(PolicyRule.ALL) || containsAll(owner.apiGroups(), sub.apiGroups());
        boolean names = sub.resourceNames().isEmpty() ? owner.resourceNames().isEmpty()
                : owner.resourceNames().isEmpty() || containsAll(owner.resourceNames(), sub.resourceNames());
        return verbs && groups && names && resourcesCover(owner.resources(), sub.resources())
                && urlsCover(owner.nonResourceURLs(), sub.nonResourceURLs());
    }

    /** Kube's {@code hasAll}; through a hash set when the lists are long, so that two long lists are not squared. */
    private static boolean containsAll(List<String> owner, List<String> sub) {
        if (sub.size() <= 1 || owner.size() <= 8) {
            return owner.containsAll(sub);
        }
        return new java.util.HashSet<>(owner).containsAll(sub);
    }

    /** {@code *} covers all, a name itself, {@code *}{@code /status} the status of any resource. */
    private static boolean resourcesCover(List<String> owner, List<String> sub) {
        if (owner.contains(PolicyRule.ALL)) {
            return true;
        }
        for (String resource : sub) {
            if (owner.contains(resource)) {
                continue;
            }
            int slash = resource.indexOf('/');
            if (slash < 0 || !owner.contains("*/" + resource.substring(slash + 1))) {
                return false;
            }
        }
        return true;
    }

    private static boolean urlsCover(List<String> owner, List<String> sub) {
        for (String path : sub) {
            boolean covered = false;
            for (String ownerPath : owner) {
                if (ownerPath.equals(path) || ownerPath.endsWith("*")
                        && path.startsWith(PolicyRule.trimTrailingStars(ownerPath))) {
                    covered = true;
                    break;
                }
            }
            if (!covered) {
                return false;
            }
        }
        return true;
    }

    /**
     * Kube's {@code CompactRules}: atoms of one group and resource (no names, no URLs) that differ only by verb become
     * one rule with all their verbs; the others stay as they are.
     */
    static List<PolicyRule> compact(List<PolicyRule> rules) {
        List<PolicyRule> compacted = new ArrayList<>();
        Map<List<String>, List<String>> verbsByResource = new LinkedHashMap<>();
        for (PolicyRule rule : rules) {
            boolean simple = rule.resourceNames().isEmpty() && rule.nonResourceURLs().isEmpty()
                    && rule.apiGroups().size() == 1 && rule.resources().size() == 1;
            if (simple) {
                verbsByResource.computeIfAbsent(List.of(rule.apiGroups().get(0), rule.resources().get(0)),
                        resource -> new ArrayList<>()).addAll(rule.verbs());
            } else {
                compacted.add(rule);
            }
        }
        verbsByResource.forEach((resource, verbs) -> compacted.add(new PolicyRule(verbs, List.of(resource.get(0)),
                List.of(resource.get(1)), List.of(), List.of())));
        return compacted;
    }
}
