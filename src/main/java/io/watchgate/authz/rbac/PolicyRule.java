package io.watchgate.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.authz.Attributes;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule of a Role or ClusterRole (rbac/v1 {@code PolicyRule}), matched as kube-apiserver's RBAC authorizer matches
 * it ({@code RuleAllows} and the rbac/v1 helpers {@code VerbMatches}, {@code APIGroupMatches}, {@code ResourceMatches},
 * {@code ResourceNameMatches}, {@code NonResourceURLMatches}).
 */
public record PolicyRule(List<String> verbs, List<String> apiGroups, List<String> resources,
        List<String> resourceNames, List<String> nonResourceURLs) {

    static final String ALL = "*";

    public PolicyRule {
        verbs = List.copyOf(verbs);
        apiGroups = List.copyOf(apiGroups);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
        nonResourceURLs = List.copyOf(nonResourceURLs);
    }

    /**
     * A rule as stored: a list that is missing or not a list counts as empty, an element that is not text is skipped.
     */
    public static PolicyRule from(JsonNode rule) {
        return new PolicyRule(strings(rule.path("verbs")), strings(rule.path("apiGroups")),
                strings(rule.path("resources")), strings(rule.path("resourceNames")),
                strings(rule.path("nonResourceURLs")));
    }

    /** The rules of a role's {@code rules} list. */
    public static List<PolicyRule> listFrom(JsonNode rules) {
        if (!rules.isArray()) {
            return List.of();
        }
        List<PolicyRule> parsed = new ArrayList<>(rules.size());
        rules.forEach(rule -> parsed.add(from(rule)));
        return List.copyOf(parsed);
    }

    private static List<String> strings(JsonNode list) {
        if (!list.isArray()) {
            return List.of();
        }
        List<String> values = new ArrayList<>(list.size());
        list.forEach(value -> {
            if (value.isTextual()) {
                values.add(value.textValue());
            }
        });
        return values;
    }

    /** Kube's {@code RuleAllows}: whether this rule lets the request through. */
    public boolean allows(Attributes request) {
        if (!verbMatches(request.verb())) {
            return false;
        }
        if (!request.resourceRequest()) {
            return nonResourceURLMatches(request.path());
        }
        String subresource = request.subresource();
        String combined = subresource.isEmpty() ? request.resource() : request.resource() + "/" + subresource;
        return apiGroupMatches(request.group()) && resourceMatches(combined, subresource)
                && resourceNameMatches(request.name());
    }

    boolean verbMatches(String verb) {
        for (String ruleVerb : verbs) {
            if (ruleVerb.equals(ALL) || ruleVerb.equals(verb)) {
                return true;
            }
        }
        return false;
    }

    boolean apiGroupMatches(String group) {
        for (String ruleGroup : apiGroups) {
            if (ruleGroup.equals(ALL) || ruleGroup.equals(group)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code *} matches everything, {@code pods/log} that subresource, {@code *}{@code /log} the subresource of any
     * resource. Kube has no {@code pods/*}: such a rule matches only a resource literally named so (none).
     */
    boolean resourceMatches(String combinedResource, String subresource) {
        for (String ruleResource : resources) {
            if (ruleResource.equals(ALL) || ruleResource.equals(combinedResource)) {
                return true;
            }
            if (!subresource.isEmpty() && ruleResource.length() == subresource.length() + 2
                    && ruleResource.startsWith("*/") && ruleResource.endsWith(subresource)) {
                return true;
            }
        }
        return false;
    }

    /** No names: any object, and collections; names: only those objects, so never a request without a name. */
    boolean resourceNameMatches(String name) {
        return resourceNames.isEmpty() || resourceNames.contains(name);
    }

    /** A URL ending in {@code *} is a prefix; {@code *} alone is every path. */
    boolean nonResourceURLMatches(String path) {
        for (String ruleUrl : nonResourceURLs) {
            if (ruleUrl.equals(ALL) || ruleUrl.equals(path)) {
                return true;
            }
            if (ruleUrl.endsWith("*") && path.startsWith(trimTrailingStars(ruleUrl))) {
                return true;
            }
        }
        return false;
    }

    /** Go's {@code strings.TrimRight(url, "*")}, which kube uses: every trailing star goes. */
    static String trimTrailingStars(String url) {
        int end = url.length();
        while (end > 0 && url.charAt(end - 1) == '*') {
            end--;
        }
        return url.substring(0, end);
    }

    /**
     * Kube's {@code CompactString}, which escalation messages list rules by:
     * {@code {APIGroups:[""], Resources:["pods"], Verbs:["get"]}}, empty lists left out.
     */
    public String compactString() {
        List<String> parts = new ArrayList<>(5);
        part(parts, "APIGroups", apiGroups);
        part(parts, "Resources", resources);
        part(parts, "NonResourceURLs", nonResourceURLs);
        part(parts, "ResourceNames", resourceNames);
        part(parts, "Verbs", verbs);
        return "{" + String.join(", ", parts) + "}";
    }

    private static void part(List<String> parts, String field, List<String> values) {
        if (!values.isEmpty()) {
            parts.add(field + ":" + GoQuoted.list(values));
        }
    }
}
