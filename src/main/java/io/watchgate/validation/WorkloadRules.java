package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.selector.LabelSelectorObject;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What kube-apiserver's pkg/apis/apps/validation and pkg/apis/batch/validation check first of a workload, with
 * their paths and messages (values as kube 1.34 prints them, in JSON): a selector that selects something and matches
 * the pod template's labels, never changed once set; replica counts that are not negative; a template with named
 * containers that have an image, and the restart policy its kind allows; a CronJob's schedule. The rest of the pod
 * spec is checked for its types only.
 *
 * <p>The object has been through typed decoding and defaulting: fields are of their declared types when present.
 */
final class WorkloadRules {

    private static final List<String> ALWAYS = List.of("Always");
    private static final List<String> JOB_RESTART = List.of("OnFailure", "Never");

    private WorkloadRules() {
    }

    /** @param old the object replaced, or null on create */
    static void check(String kind, JsonNode object, JsonNode old, Causes causes) {
        JsonNode spec = object.path("spec");
        switch (kind) {
            case "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet" -> {
                nonNegative(spec, "replicas", "spec.replicas", causes);
                nonNegative(spec, "minReadySeconds", "spec.minReadySeconds", causes);
                selector(kind, spec, "spec", causes);
                template(spec.path("template"), "spec.template", ALWAYS, causes);
                if (old != null && !kind.equals("StatefulSet")) {
                    immutableSelector(spec, old.path("spec"), "spec.selector", causes);
                }
            }
            case "Job" -> {
                for (String field : new String[] { "parallelism", "completions", "backoffLimit",
                        "activeDeadlineSeconds", "ttlSecondsAfterFinished" }) {
                    nonNegative(spec, field, "spec." + field, causes);
                }
                selector(kind, spec, "spec", causes);
                generatedSelector(object, causes);
                template(spec.path("template"), "spec.template", JOB_RESTART, causes);
                if (old != null) {
                    immutableSelector(spec, old.path("spec"), "spec.selector", causes);
                }
            }
            case "CronJob" -> {
                if (spec.path("schedule").asText("").isEmpty()) {
                    causes.add(Cause.required("spec.schedule", ""));
                }
                nonNegative(spec, "successfulJobsHistoryLimit", "spec.successfulJobsHistoryLimit", causes);
                nonNegative(spec, "failedJobsHistoryLimit", "spec.failedJobsHistoryLimit", causes);
                template(spec.path("jobTemplate").path("spec").path("template"), "spec.jobTemplate.spec.template",
                        JOB_RESTART, causes);
            }
            default -> {
            }
        }
    }

    private static void nonNegative(JsonNode spec, String field, String path, Causes causes) {
        JsonNode value = spec.path(field);
        if (value.isNumber() && value.asLong() < 0) {
            causes.add(Cause.invalid(path, value.asLong(), "must be greater than or equal to 0"));
        }
    }

    /** A selector that selects something, and that the template's labels match. */
    private static void selector(String kind, JsonNode spec, String path, Causes causes) {
        JsonNode selector = spec.path("selector");
        JsonNode labels = spec.path("template").path("metadata").path("labels");
        if (!selector.isObject()) {
            if (!kind.equals("DaemonSet")) {
                causes.add(Cause.required(path + ".selector", ""));
                return;
            }
        } else if (LabelSelectorObject.isEmpty(selector)) {
            causes.add(Cause.invalid(path + ".selector", selector,
                    "empty selector is invalid for " + (kind.equals("ReplicaSet") ? "deployment"
                            : kind.toLowerCase(java.util.Locale.ROOT))));
            return;
        }
        if (!selector.isObject() || !LabelSelectorObject.matches(selector, map(labels))) {
            causes.add(Cause.invalid(path + ".template.metadata.labels", labels.isObject() ? labels : "null",
                    "`selector` does not match template `labels`"));
        }
    }

    /**
     * A Job that does not choose its selector has the one made of its uid, and its template the labels naming it
     * (kube's validateGeneratedSelector): no Job can take up another's pods by naming that one's uid.
     */
    private static void generatedSelector(JsonNode job, Causes causes) {
        JsonNode spec = job.path("spec");
        JsonNode labels = spec.path("template").path("metadata").path("labels");
        if (spec.path("manualSelector").asBoolean(false) || !labels.isObject()) {
            return;
        }
        String uid = job.path("metadata").path("uid").asText("");
        String name = job.path("metadata").path("name").asText("");
        if (uid.isEmpty()) {
            causes.add(Cause.required("metadata.uid", ""));
        }
        hasLabel(labels, "controller-uid", uid, causes);
        hasLabel(labels, "job-name", name, causes);
        hasLabel(labels, "batch.kubernetes.io/controller-uid", uid, causes);
        hasLabel(labels, "batch.kubernetes.io/job-name", name, causes);
        JsonNode selector = spec.path("selector");
        if (selector.isObject() && !LabelSelectorObject.matches(selector,
                Map.of("batch.kubernetes.io/controller-uid", uid))) {
            causes.add(Cause.invalid("spec.selector", selector, "`selector` not auto-generated"));
        }
    }

    private static void hasLabel(JsonNode labels, String key, String expected, Causes causes) {
        String path = "spec.template.metadata.labels[" + key + "]";
        if (!labels.has(key)) {
            causes.add(Cause.required(path, expected));
        } else if (!labels.path(key).asText("").equals(expected)) {
            causes.add(Cause.invalid(path, labels, "must be '" + expected + "'"));
        }
    }

    private static void immutableSelector(JsonNode spec, JsonNode oldSpec, String path, Causes causes) {
        if (oldSpec.has("selector") && !spec.path("selector").equals(oldSpec.path("selector"))) {
            causes.add(Cause.invalid(path, spec.path("selector"), "field is immutable"));
        }
    }

    /** Containers, each named and with an image, and a restart policy the kind allows. */
    private static void template(JsonNode template, String path, List<String> restartPolicies, Causes causes) {
        JsonNode podSpec = template.path("spec");
        JsonNode containers = podSpec.path("containers");
        if (containers.isEmpty()) {
            causes.add(Cause.required(path + ".spec.containers", ""));
        }
        for (int i = 0; i < containers.size(); i++) {
            JsonNode container = containers.get(i);
            String at = path + ".spec.containers[" + i + "]";
            if (container.path("name").asText("").isEmpty() && causes.accept()) {
                causes.add(Cause.required(at + ".name", ""));
            }
            if (container.path("image").asText("").isEmpty() && causes.accept()) {
                causes.add(Cause.required(at + ".image", ""));
            }
        }
        String restartPolicy = podSpec.path("restartPolicy").asText("");
        if (restartPolicies == JOB_RESTART && (restartPolicy.isEmpty() || restartPolicy.equals("Always"))) {
            causes.add(Cause.required(path + ".spec.restartPolicy", "valid values: \"OnFailure\", \"Never\""));
        } else if (!restartPolicy.isEmpty() && !restartPolicies.contains(restartPolicy)) {
            causes.add(Cause.notSupported(path + ".spec.restartPolicy", restartPolicy, restartPolicies));
        }
    }

    private static Map<String, String> map(JsonNode labels) {
        Map<String, String> map = new HashMap<>();
        labels.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }
}
