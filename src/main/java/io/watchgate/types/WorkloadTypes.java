package io.watchgate.types;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The workload types of apps/v1 and batch/v1, stored as kube-apiserver stores them: with their status (and, for
 * those that have replicas, scale) subresources. No controller acts on them here: a Deployment makes no
 * ReplicaSet and a Job runs no pod.
 */
public final class WorkloadTypes {

    public static final String APPS = "apps";
    public static final String BATCH = "batch";

    public static final ResourceType DEPLOYMENTS = workload(APPS, "Deployment", "deployments", List.of("deploy"),
            Subresources.STATUS_AND_SCALE, "spec.template.");
    public static final ResourceType STATEFUL_SETS = workload(APPS, "StatefulSet", "statefulsets", List.of("sts"),
            Subresources.STATUS_AND_SCALE, "spec.template.");
    public static final ResourceType DAEMON_SETS = workload(APPS, "DaemonSet", "daemonsets", List.of("ds"),
            Subresources.STATUS, "spec.template.");
    public static final ResourceType REPLICA_SETS = workload(APPS, "ReplicaSet", "replicasets", List.of("rs"),
            Subresources.STATUS_AND_SCALE, "spec.template.");
    public static final ResourceType JOBS = workload(BATCH, "Job", "jobs", List.of(), Subresources.STATUS,
            "spec.template.");
    public static final ResourceType CRON_JOBS = workload(BATCH, "CronJob", "cronjobs", List.of("cj"),
            Subresources.STATUS, "spec.jobTemplate.spec.template.");

    public static final List<ResourceType> ALL = List.of(DEPLOYMENTS, STATEFUL_SETS, DAEMON_SETS, REPLICA_SETS, JOBS,
            CRON_JOBS);

    private WorkloadTypes() {
    }

    /** {@code template}: the path of the pod template, whose lists merge by the keys a pod's do. */
    private static ResourceType workload(String group, String kind, String plural, List<String> shortNames,
            Subresources subresources, String template) {
        Map<String, String> keys = new HashMap<>();
        CoreTypes.POD_SPEC_KEYS.forEach((path, key) -> {
            if (path.startsWith("spec.")) {
                keys.put(template + path, key);
            }
        });
        keys.put("metadata.ownerReferences", "uid");
        keys.put("status.conditions", "type");
        return new ResourceType(group, "v1", kind, plural, kind.toLowerCase(java.util.Locale.ROOT), true, shortNames,
                NameRule.DNS1123_SUBDOMAIN, Map.of(), true, Map.copyOf(keys), ResourceType.ALL_VERBS,
                UpdateStrategy.REPLACE, subresources);
    }
}
