package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import java.util.List;

/**
 * What kube-apiserver's pkg/apis/coordination/validation checks of a Lease's spec, with its field paths and
 * messages: a positive duration, a count of transitions that is not negative, and a coordinated election's
 * strategy (a Kubernetes one, or a qualified name of one's own) that alone allows a preferred holder.
 *
 * <p>The object has been through typed decoding (ProtobufObjects.conform): each field is of its declared type when
 * present, and the times are MicroTimes.
 */
final class LeaseRules {

    /**
     * The strategies Kubernetes defines; any other must be a qualified name with a prefix ("example.com/mine").
     * kube names the field {@code spec.strategy.strategy} in its causes (its path gets "strategy" twice): so here.
     */
    private static final List<String> STRATEGIES = List.of("OldestEmulationVersion");

    private LeaseRules() {
    }

    static void check(JsonNode lease, Causes causes) {
        JsonNode spec = lease.path("spec");
        JsonNode duration = spec.path("leaseDurationSeconds");
        if (duration.isInt() && duration.intValue() <= 0) {
            causes.add(Cause.invalid("spec.leaseDurationSeconds", duration.intValue(), "must be greater than 0"));
        }
        JsonNode transitions = spec.path("leaseTransitions");
        if (transitions.isInt() && transitions.intValue() < 0) {
            causes.add(Cause.invalid("spec.leaseTransitions", transitions.intValue(),
                    "must be greater than or equal to 0"));
        }
        String strategy = spec.path("strategy").asText("");
        if (spec.path("strategy").isTextual()) {
            if (!strategy.contains("/")) {
                if (!STRATEGIES.contains(strategy)) {
                    causes.add(Cause.notSupported("spec.strategy.strategy", strategy, STRATEGIES));
                }
            } else {
                String problem = IdentifierSyntax.qualifiedNameProblem(strategy);
                if (problem != null) {
                    causes.add(Cause.invalid("spec.strategy.strategy", strategy, problem));
                }
            }
        }
        if (!spec.path("preferredHolder").asText("").isEmpty() && strategy.isEmpty()) {
            causes.add(Cause.forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined"));
        }
    }
}
