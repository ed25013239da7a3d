package io.watchgate.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.selector.LabelSelector;
import io.watchgate.selector.Requirement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an aggregated ClusterRole's rules are, as kube's ClusterRoleAggregationController computes them: for each of
 * its selectors in turn, the ClusterRoles it selects by name (itself excepted), and their rules in order, each rule
 * once. Rules compare as Go's semantic equality does, an empty list the same as none.
 */
final class AggregatedRules {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> RULE_FIELDS = List.of("verbs", "apiGroups", "resources", "resourceNames",
            "nonResourceURLs");

    private AggregatedRules() {
    }

    /** Whether {@code role} is aggregated: has an aggregationRule (kube aggregates on the rule being set). */
    static boolean isAggregated(JsonNode role) {
        return role.path("aggregationRule").isObject();
    }

    /** The rules {@code aggregated} should hold, given every ClusterRole there is. */
    static ArrayNode of(JsonNode aggregated, List<JsonNode> clusterRoles) {
        String self = name(aggregated);
        List<JsonNode> byName = new ArrayList<>(clusterRoles);
        byName.sort(Comparator.comparing(AggregatedRules::name));
        Map<ObjectNode, ObjectNode> rules = new LinkedHashMap<>();
        for (JsonNode selectorNode : aggregated.path("aggregationRule").path("clusterRoleSelectors")) {
            LabelSelector selector = selector(selectorNode);
            for (JsonNode role : byName) {
                if (name(role).equals(self) || !selector.matches(label -> labelOf(role, label))) {
                    continue;
                }
                for (JsonNode rule : role.path("rules")) {
                    ObjectNode normal = normalized(rule);
                    rules.putIfAbsent(normal, normal);
                }
            }
        }
        ArrayNode result = JSON.arrayNode();
        rules.keySet().forEach(result::add);
        return result;
    }

    /** Whether two lists of rules are the same to Go's semantic equality. */
    static boolean same(JsonNode rules, ArrayNode expected) {
        if (rules.size() != expected.size()) {
            return false;
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!normalized(rules.get(i)).equals(expected.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** A rule with its lists in a fixed order and the empty ones left out (verbs always there, as Go writes it). */
    static ObjectNode normalized(JsonNode rule) {
        ObjectNode normal = JSON.objectNode();
        for (String field : RULE_FIELDS) {
            JsonNode values = rule.path(field);
            if (field.equals("verbs") || values.isArray() && !values.isEmpty()) {
                normal.set(field, values.isArray() ? values.deepCopy() : JSON.arrayNode());
            }
        }
        return normal;
    }

    /**
     * metav1.LabelSelectorAsSelector: matchLabels and matchExpressions together; an empty selector selects every
     * role. Validation has refused operators outside the four.
     */
    static LabelSelector selector(JsonNode selector) {
        List<Requirement> requirements = new ArrayList<>();
        selector.path("matchLabels").fields().forEachRemaining(entry -> requirements.add(new Requirement(
                entry.getKey(), Requirement.Operator.EQUALS, Set.of(entry.getValue().asText()))));
        for (JsonNode expression : selector.path("matchExpressions")) {
            List<String> values = new ArrayList<>();
            expression.path("values").forEach(value -> values.add(value.asText()));
            Requirement.Operator operator = switch (expression.path("operator").asText()) {
                case "In" -> Requirement.Operator.IN;
                case "NotIn" -> Requirement.Operator.NOT_IN;
                case "Exists" -> Requirement.Operator.EXISTS;
                default -> Requirement.Operator.DOES_NOT_EXIST;
            };
            requirements.add(new Requirement(expression.path("key").asText(), operator, Set.copyOf(values)));
        }
        return new LabelSelector(requirements);
    }

    private static String labelOf(JsonNode role, String label) {
        JsonNode value = role.path("metadata").path("labels").get(label);
        return value == null || !value.isTextual() ? null : value.textValue();
    }

    static String name(JsonNode role) {
        return role.path("metadata").path("name").asText();
    }
}
