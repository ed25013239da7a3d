package io.watchgate.tables;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.selector.LabelSelectorObject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The columns kube-apiserver's printers give the workloads of apps/v1 and batch/v1 (pkg/printers/internalversion):
 * replica counts from their status (zero until a controller writes one), and with {@code -o wide} the template's
 * containers, images and selector.
 */
final class WorkloadColumns {

    private WorkloadColumns() {
    }

    private static final Column CONTAINERS = Column.of("Containers", "string",
            "Names of each container in the template.", (o, now) -> containers(o, "name")).wide();
    private static final Column IMAGES = Column.of("Images", "string",
            "Images referenced by each container in the template.", (o, now) -> containers(o, "image")).wide();
    private static final Column SELECTOR = Column.of("Selector", "string",
            "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected "
                    + "by this deployment.", (o, now) -> selector(o.path("spec").path("selector"))).wide();

    static final Map<String, List<Column>> BY_RESOURCE = Map.of(
            "deployments.apps", List.of(CoreColumns.NAME,
                    Column.of("Ready", "string", "Number of the pod with ready state",
                            (o, now) -> count(o, "readyReplicas") + "/" + replicas(o)),
                    Column.of("Up-to-date", "string", "Total number of non-terminated pods targeted by this "
                            + "deployment that have the desired template spec.", (o, now) -> count(o, "updatedReplicas")),
                    Column.of("Available", "string", "Total number of available pods (ready for at least "
                            + "minReadySeconds) targeted by this deployment.", (o, now) -> count(o, "availableReplicas")),
                    CoreColumns.AGE, CONTAINERS, IMAGES, SELECTOR),
            "replicasets.apps", List.of(CoreColumns.NAME,
                    Column.of("Desired", "integer", "Number of desired pods", (o, now) -> (long) replicas(o)),
                    Column.of("Current", "integer", "Number of actively running pods", (o, now) -> count(o, "replicas")),
                    Column.of("Ready", "integer", "Number of pods with ready state",
                            (o, now) -> count(o, "readyReplicas")),
                    CoreColumns.AGE, CONTAINERS, IMAGES, SELECTOR),
            "statefulsets.apps", List.of(CoreColumns.NAME,
                    Column.of("Ready", "string", "Number of the pod with ready state",
                            (o, now) -> count(o, "readyReplicas") + "/" + replicas(o)),
                    CoreColumns.AGE, CONTAINERS, IMAGES),
            "daemonsets.apps", List.of(CoreColumns.NAME,
                    Column.of("Desired", "integer", "The total number of nodes that should be running the daemon pod.",
                            (o, now) -> count(o, "desiredNumberScheduled")),
                    Column.of("Current", "integer", "The number of nodes that are running at least 1 daemon pod.",
                            (o, now) -> count(o, "currentNumberScheduled")),
                    Column.of("Ready", "integer", "The number of nodes that should be running the daemon pod and have "
                            + "one or more of the daemon pod running and ready.", (o, now) -> count(o, "numberReady")),
                    Column.of("Up-to-date", "integer", "The total number of nodes that are running updated daemon pod",
                            (o, now) -> count(o, "updatedNumberScheduled")),
                    Column.of("Available", "integer", "The number of nodes that should be running the daemon pod and "
                            + "have one or more of the daemon pod running and available.",
                            (o, now) -> count(o, "numberAvailable")),
                    Column.of("Node Selector", "string", "NodeSelector is a selector which must be true for the pod to "
                            + "fit on a node.", (o, now) -> nodeSelector(o)),
                    CoreColumns.AGE, CONTAINERS, IMAGES, SELECTOR),
            "jobs.batch", List.of(CoreColumns.NAME,
                    Column.of("Status", "string", "Status of the job.", (o, now) -> jobStatus(o)),
                    Column.of("Completions", "string", "The completion status of the job.",
                            (o, now) -> completions(o)),
                    Column.of("Duration", "string", "Time required to complete the job.", WorkloadColumns::duration),
                    CoreColumns.AGE, CONTAINERS, IMAGES, SELECTOR),
            "cronjobs.batch", List.of(CoreColumns.NAME,
                    Column.of("Schedule", "string", "The schedule in Cron format, see "
                            + "https://en.wikipedia.org/wiki/Cron.", (o, now) -> o.path("spec").path("schedule").asText("")),
                    Column.of("Timezone", "string", "The time zone name for the given schedule, see "
                            + "https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.",
                            (o, now) -> CoreColumns.text(o.path("spec").path("timeZone"), "<none>")),
                    Column.of("Suspend", "boolean", "This flag tells the controller to suspend subsequent executions.",
                            (o, now) -> suspend(o.path("spec").path("suspend"))),
                    Column.of("Active", "integer", "A list of pointers to currently running jobs.",
                            (o, now) -> (long) o.path("status").path("active").size()),
                    Column.of("Last Schedule", "string", "Information when was the last time the job was successfully "
                            + "scheduled.", (o, now) -> lastSchedule(o, now)),
                    CoreColumns.AGE, CONTAINERS, IMAGES, SELECTOR));

    /** As kube's printBoolPtr: a string cell, though the column says boolean. */
    private static String suspend(JsonNode suspend) {
        return suspend.isBoolean() ? (suspend.booleanValue() ? "True" : "False") : "<unset>";
    }

    private static long count(JsonNode workload, String field) {
        return workload.path("status").path(field).asLong(0);
    }

    private static int replicas(JsonNode workload) {
        return workload.path("spec").path("replicas").asInt(0);
    }

    /** The pod template's containers, wherever the kind keeps it (a CronJob's is in its job template). */
    private static String containers(JsonNode workload, String field) {
        JsonNode spec = workload.path("spec");
        JsonNode template = spec.has("jobTemplate") ? spec.path("jobTemplate").path("spec").path("template")
                : spec.path("template");
        List<String> values = new ArrayList<>();
        template.path("spec").path("containers").forEach(c -> values.add(c.path(field).asText("")));
        return String.join(",", values);
    }

    private static String selector(JsonNode selector) {
        String formatted = selector.isObject() ? LabelSelectorObject.format(selector) : "";
        return formatted.isEmpty() ? "<none>" : formatted;
    }

    private static String nodeSelector(JsonNode daemonSet) {
        List<String> pairs = new ArrayList<>();
        daemonSet.path("spec").path("template").path("spec").path("nodeSelector").properties()
                .forEach(e -> pairs.add(e.getKey() + "=" + e.getValue().asText()));
        pairs.sort(null);
        return pairs.isEmpty() ? "<none>" : String.join(",", pairs);
    }

    private static String jobStatus(JsonNode job) {
        if (condition(job, "Complete")) {
            return "Complete";
        }
        if (condition(job, "Failed")) {
            return "Failed";
        }
        if (job.path("metadata").hasNonNull("deletionTimestamp")) {
            return "Terminating";
        }
        if (condition(job, "Suspended")) {
            return "Suspended";
        }
        if (condition(job, "FailureTarget")) {
            return "FailureTarget";
        }
        return condition(job, "SuccessCriteriaMet") ? "SuccessCriteriaMet" : "Running";
    }

    private static boolean condition(JsonNode job, String type) {
        for (JsonNode condition : job.path("status").path("conditions")) {
            if (type.equals(condition.path("type").asText()) && "True".equals(condition.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    private static String completions(JsonNode job) {
        long succeeded = count(job, "succeeded");
        JsonNode completions = job.path("spec").path("completions");
        if (completions.isNumber()) {
            return succeeded + "/" + completions.asLong();
        }
        long parallelism = job.path("spec").path("parallelism").asLong(0);
        return parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
    }

    private static Object duration(JsonNode job, Instant now) {
        Instant start = time(job.path("status").path("startTime"));
        if (start == null) {
            return "";
        }
        Instant end = time(job.path("status").path("completionTime"));
        return CoreColumns.age(job.path("status").path("startTime"), end == null ? now : end);
    }

    private static String lastSchedule(JsonNode cronJob, Instant now) {
        JsonNode last = cronJob.path("status").path("lastScheduleTime");
        return time(last) == null ? "<none>" : CoreColumns.age(last, now);
    }

    private static Instant time(JsonNode node) {
        if (!node.isTextual()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(node.asText()).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
