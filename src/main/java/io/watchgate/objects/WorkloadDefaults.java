package io.watchgate.objects;

import static io.watchgate.objects.PodTemplateDefaults.textIfAbsent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.types.ResourceType;
import io.watchgate.types.WorkloadTypes;

/**
 * What kube-apiserver fills into the workloads of apps/v1 and batch/v1 (pkg/apis/apps/v1/defaults.go,
 * pkg/apis/batch/v1/defaults.go) on every write, and what their strategies set on create: an empty status, a
 * DaemonSet's template generation, a Job's generated selector.
 */
final class WorkloadDefaults {

    static final String DAEMON_SET_TEMPLATE_GENERATION = "deprecated.daemonset.template.generation";

    private WorkloadDefaults() {
    }

    static boolean applies(ResourceType type) {
        return WorkloadTypes.ALL.contains(type);
    }

    /** On every write: the defaults of the kind's spec and of its pod template. */
    static void onWrite(ResourceType type, ObjectNode object) {
        if (!(object.path("spec") instanceof ObjectNode spec)) {
            return;
        }
        switch (type.kind()) {
            case "Deployment" -> deployment(spec);
            case "StatefulSet" -> statefulSet(spec);
            case "DaemonSet" -> daemonSet(spec);
            case "ReplicaSet" -> numberIfAbsent(spec, "replicas", 1);
            case "Job" -> job(spec, object);
            case "CronJob" -> cronJob(spec);
            default -> {
            }
        }
        PodTemplateDefaults.apply(type.kind().equals("CronJob")
                ? spec.path("jobTemplate").path("spec").path("template") : spec.path("template"));
    }

    /** On create, once the object has its name and uid: the status a controller starts from, and more. */
    static void onCreate(ResourceType type, ObjectNode object) {
        ObjectNode status = object.putObject("status");
        switch (type.kind()) {
            case "DaemonSet" -> {
                status.put("currentNumberScheduled", 0).put("numberMisscheduled", 0)
                        .put("desiredNumberScheduled", 0).put("numberReady", 0);
                ObjectNode annotations = object.withObject("/metadata").withObject("/annotations");
                if (annotations.path(DAEMON_SET_TEMPLATE_GENERATION).asLong(0) < 1) {
                    annotations.put(DAEMON_SET_TEMPLATE_GENERATION, "1"); // kube keeps one of 1 or more
                }
            }
            case "StatefulSet" -> status.put("replicas", 0).put("availableReplicas", 0);
            case "ReplicaSet" -> status.put("replicas", 0);
            default -> {
            }
        }
    }

    /** On create, once the object has its name: a Job's selector, made of its name and uid. */
    static void onNamed(ResourceType type, ObjectNode object) {
        if (type.kind().equals("Job")) {
            generateSelector(object);
        }
    }

    /** On update: a DaemonSet counts the changes of its template. */
    static void onUpdate(ResourceType type, ObjectNode current, ObjectNode updated) {
        if (!type.kind().equals("DaemonSet")) {
            return;
        }
        long generation = current.path("metadata").path("annotations").path(DAEMON_SET_TEMPLATE_GENERATION)
                .asLong(1);
        if (!current.path("spec").path("template").equals(updated.path("spec").path("template"))) {
            generation++;
        }
        updated.withObject("/metadata").withObject("/annotations").put(DAEMON_SET_TEMPLATE_GENERATION,
                Long.toString(generation));
    }

    private static void deployment(ObjectNode spec) {
        numberIfAbsent(spec, "replicas", 1);
        ObjectNode strategy = spec.withObject("/strategy");
        textIfAbsent(strategy, "type", "RollingUpdate");
        if (strategy.path("type").asText().equals("RollingUpdate")) {
            ObjectNode rolling = strategy.withObject("/rollingUpdate");
            textIfAbsent(rolling, "maxUnavailable", "25%");
            textIfAbsent(rolling, "maxSurge", "25%");
        }
        numberIfAbsent(spec, "revisionHistoryLimit", 10);
        numberIfAbsent(spec, "progressDeadlineSeconds", 600);
    }

    private static void statefulSet(ObjectNode spec) {
        textIfAbsent(spec, "podManagementPolicy", "OrderedReady");
        ObjectNode strategy = spec.withObject("/updateStrategy");
        if (strategy.path("type").asText("").isEmpty()) {
            strategy.put("type", "RollingUpdate");
            strategy.withObject("/rollingUpdate");
        }
        if (strategy.path("type").asText().equals("RollingUpdate") && strategy.path("rollingUpdate").isObject()) {
            numberIfAbsent((ObjectNode) strategy.path("rollingUpdate"), "partition", 0);
        }
        ObjectNode retention = spec.withObject("/persistentVolumeClaimRetentionPolicy");
        textIfAbsent(retention, "whenDeleted", "Retain");
        textIfAbsent(retention, "whenScaled", "Retain");
        numberIfAbsent(spec, "replicas", 1);
        numberIfAbsent(spec, "revisionHistoryLimit", 10);
        for (JsonNode claim : spec.path("volumeClaimTemplates")) {
            if (claim instanceof ObjectNode template) {
                template.put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
                textIfAbsent(template.withObject("/spec"), "volumeMode", "Filesystem");
                textIfAbsent(template.withObject("/status"), "phase", "Pending");
            }
        }
    }

    private static void daemonSet(ObjectNode spec) {
        ObjectNode strategy = spec.withObject("/updateStrategy");
        textIfAbsent(strategy, "type", "RollingUpdate");
        if (strategy.path("type").asText().equals("RollingUpdate")) {
            ObjectNode rolling = strategy.withObject("/rollingUpdate");
            if (!rolling.hasNonNull("maxUnavailable")) {
                rolling.put("maxUnavailable", 1);
            }
            if (!rolling.hasNonNull("maxSurge")) {
                rolling.put("maxSurge", 0);
            }
        }
        numberIfAbsent(spec, "revisionHistoryLimit", 10);
    }

    private static void job(ObjectNode spec, ObjectNode job) {
        if (!spec.hasNonNull("completions") && !spec.hasNonNull("parallelism")) {
            spec.put("completions", 1);
        }
        numberIfAbsent(spec, "parallelism", 1);
        numberIfAbsent(spec, "backoffLimit", spec.hasNonNull("backoffLimitPerIndex") ? Integer.MAX_VALUE : 6);
        JsonNode templateLabels = spec.path("template").path("metadata").path("labels");
        if (templateLabels.isObject() && job.path("metadata").path("labels").isEmpty()) {
            job.withObject("/metadata").set("labels", templateLabels.deepCopy());
        }
        textIfAbsent(spec, "completionMode", "NonIndexed");
        if (!spec.hasNonNull("suspend")) {
            spec.put("suspend", false);
        }
        textIfAbsent(spec, "podReplacementPolicy", spec.hasNonNull("podFailurePolicy") ? "Failed"
                : "TerminatingOrFailed");
        if (!spec.hasNonNull("manualSelector")) {
            spec.put("manualSelector", false);
        }
    }

    private static void cronJob(ObjectNode spec) {
        textIfAbsent(spec, "concurrencyPolicy", "Allow");
        if (!spec.hasNonNull("suspend")) {
            spec.put("suspend", false);
        }
        numberIfAbsent(spec, "successfulJobsHistoryLimit", 3);
        numberIfAbsent(spec, "failedJobsHistoryLimit", 1);
    }

    /**
     * A Job's pods are selected by its uid unless it asks to choose its selector itself: the template is labelled
     * with the Job's name and uid (each label only if absent), the selector asks for the uid, and a Job without
     * labels of its own takes its template's, as kube's Job strategy and its defaulting leave them.
     */
    private static void generateSelector(ObjectNode job) {
        if (!(job.path("spec") instanceof ObjectNode spec) || spec.path("manualSelector").asBoolean(false)) {
            return;
        }
        String name = job.path("metadata").path("name").asText("");
        String uid = job.path("metadata").path("uid").asText("");
        ObjectNode labels = spec.withObject("/template").withObject("/metadata").withObject("/labels");
        putIfAbsent(labels, "batch.kubernetes.io/controller-uid", uid);
        putIfAbsent(labels, "batch.kubernetes.io/job-name", name);
        putIfAbsent(labels, "controller-uid", uid);
        putIfAbsent(labels, "job-name", name);
        ObjectNode matchLabels = spec.withObject("/selector").withObject("/matchLabels");
        putIfAbsent(matchLabels, "batch.kubernetes.io/controller-uid", uid);
        if (job.path("metadata").path("labels").isEmpty()) {
            job.withObject("/metadata").set("labels", labels.deepCopy());
        }
    }

    private static void putIfAbsent(ObjectNode labels, String key, String value) {
        if (!labels.has(key)) {
            labels.put(key, value);
        }
    }

    private static void numberIfAbsent(ObjectNode object, String field, int value) {
        if (!object.hasNonNull(field)) {
            object.put(field, value);
        }
    }
}
