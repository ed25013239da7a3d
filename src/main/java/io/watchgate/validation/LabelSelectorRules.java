package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import java.util.ArrayList;
import java.util.List;

/**
 * apimachinery's ValidateLabelSelector for a metav1.LabelSelector held in an object (a ClusterRole's aggregation
 * rule): label keys and values as in metadata, operators Kubernetes knows, values only where the operator takes them.
 */
final class LabelSelectorRules {

    private LabelSelectorRules() {
    }

    static void check(JsonNode selector, String path, Causes causes) {
        JsonNode matchLabels = selector.path("matchLabels");
        List<String> keys = new ArrayList<>();
        matchLabels.fieldNames().forEachRemaining(keys::add);
        keys.sort(null); // Go ranges over a map in no order; sorted, the answer is at least the same each time
        for (String key : keys) {
            labelKey(key, path + ".matchLabels", causes);
            String value = matchLabels.path(key).asText();
            String problem = IdentifierSyntax.labelValueProblem(value);
            if (problem != null) {
                causes.add(Cause.invalid(path + ".matchLabels", value, problem));
            }
        }
        JsonNode expressions = selector.path("matchExpressions");
        for (int i = 0; i < expressions.size(); i++) {
            requirement(expressions.get(i), path + ".matchExpressions[" + i + "]", causes);
        }
    }

    private static void requirement(JsonNode requirement, String path, Causes causes) {
        String operator = requirement.path("operator").asText();
        JsonNode values = requirement.path("values");
        switch (operator) {
            case "In", "NotIn" -> {
                if (values.isEmpty()) {
                    causes.add(Cause.required(path + ".values",
                            "must be specified when `operator` is 'In' or 'NotIn'"));
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (!values.isEmpty()) {
                    causes.add(Cause.forbidden(path + ".values",
                            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                }
            }
            default -> causes.add(Cause.invalid(path + ".operator", operator, "not a valid selector operator"));
        }
        labelKey(requirement.path("key").asText(), path + ".key", causes);
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i).asText();
            String problem = IdentifierSyntax.labelValueProblem(value);
            if (problem != null) {
                causes.add(Cause.invalid(path + ".values[" + i + "]", value, problem));
            }
        }
    }

    private static void labelKey(String key, String path, Causes causes) {
        String problem = IdentifierSyntax.qualifiedNameProblem(key);
        if (problem != null) {
            causes.add(Cause.invalid(path, key, problem));
        }
    }
}
