package io.watchgate.selector;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A label selector written as an object ({@code matchLabels}, {@code matchExpressions}: metav1.LabelSelector), as
 * workloads name their pods: read as a selector, and printed as kube prints one ({@code app=web,tier in (a,b)}),
 * its requirements sorted by key.
 */
public final class LabelSelectorObject {

    private LabelSelectorObject() {
    }

    /** Whether {@code labels} carry what the selector asks; an empty selector matches everything. */
    public static boolean matches(JsonNode selector, Map<String, String> labels) {
        for (var entry : selector.path("matchLabels").properties()) {
            if (!entry.getValue().asText().equals(labels.get(entry.getKey()))) {
                return false;
            }
        }
        for (JsonNode expression : selector.path("matchExpressions")) {
            String key = expression.path("key").asText("");
            List<String> values = new ArrayList<>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            String value = labels.get(key);
            boolean holds = switch (expression.path("operator").asText("")) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> false;
            };
            if (!holds) {
                return false;
            }
        }
        return true;
    }

    /** Whether it selects nothing in particular (no labels, no expressions): kube refuses that for a workload. */
    public static boolean isEmpty(JsonNode selector) {
        return selector.path("matchLabels").isEmpty() && selector.path("matchExpressions").isEmpty();
    }

    /** As labels.Selector's String(): {@code ""} for an empty selector. */
    public static String format(JsonNode selector) {
        Map<String, List<String>> byKey = new TreeMap<>();
        for (var entry : selector.path("matchLabels").properties()) {
            byKey.computeIfAbsent(entry.getKey(), k -> new ArrayList<>()).add(entry.getKey() + "="
                    + entry.getValue().asText());
        }
        for (JsonNode expression : selector.path("matchExpressions")) {
            String key = expression.path("key").asText("");
            List<String> values = new ArrayList<>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            values.sort(null);
            String term = switch (expression.path("operator").asText("")) {
                case "In" -> key + " in (" + String.join(",", values) + ")";
                case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
                case "Exists" -> key;
                case "DoesNotExist" -> "!" + key;
                default -> key + " " + expression.path("operator").asText("");
            };
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(term);
        }
        List<String> terms = new ArrayList<>();
        byKey.values().forEach(terms::addAll);
        return String.join(",", terms);
    }
}
