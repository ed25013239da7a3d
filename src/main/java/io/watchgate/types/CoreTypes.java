package io.watchgate.types;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** The core v1 types watchgate serves, with the field labels and patch merge keys Kubernetes gives them. */
final class CoreTypes {

    static final Map<String, String> POD_SPEC_KEYS = Map.ofEntries(
            Map.entry("spec.containers", "name"),
            Map.entry("spec.initContainers", "name"),
            Map.entry("spec.ephemeralContainers", "name"),
            Map.entry("spec.containers.ports", "containerPort"),
            Map.entry("spec.initContainers.ports", "containerPort"),
            Map.entry("spec.containers.env", "name"),
            Map.entry("spec.initContainers.env", "name"),
            Map.entry("spec.containers.volumeMounts", "mountPath"),
            Map.entry("spec.initContainers.volumeMounts", "mountPath"),
            Map.entry("spec.containers.volumeDevices", "devicePath"),
            Map.entry("spec.volumes", "name"),
            Map.entry("spec.imagePullSecrets", "name"),
            Map.entry("spec.hostAliases", "ip"),
            Map.entry("spec.tolerations", "key"),
            Map.entry("spec.readinessGates", "conditionType"),
            Map.entry("spec.resourceClaims", "name"),
            Map.entry("status.conditions", "type"),
            Map.entry("metadata.ownerReferences", "uid"));

    /** As kube-apiserver files them: of these types, pods and services are in {@code all}. */
    static final Map<String, List<String>> CATEGORIES = Map.of("pods", List.of("all"), "services", List.of("all"));

    static final ResourceType NAMESPACES = new ResourceType("", "v1", "Namespace", "namespaces", "namespace",
            false, List.of("ns"), NameRule.DNS1123_LABEL, Map.of("status.phase", "/status/phase"), true,
            Map.of("metadata.ownerReferences", "uid", "status.conditions", "type"),
            Set.of("create", "delete", "get", "list", "patch", "update", "watch"));

    static final List<ResourceType> ALL = List.of(
            NAMESPACES,
            new ResourceType("", "v1", "ConfigMap", "configmaps", "configmap", true, List.of("cm"),
                    NameRule.DNS1123_SUBDOMAIN, Map.of(), true, Map.of("metadata.ownerReferences", "uid"), ResourceType.ALL_VERBS),
            new ResourceType("", "v1", "Secret", "secrets", "secret", true, List.of(),
                    NameRule.DNS1123_SUBDOMAIN, Map.of("type", "/type"), true,
                    Map.of("metadata.ownerReferences", "uid"), ResourceType.ALL_VERBS),
            new ResourceType("", "v1", "Service", "services", "service", true, List.of("svc"),
                    NameRule.DNS1035_LABEL, Map.of(), true,
                    Map.of("spec.ports", "port", "metadata.ownerReferences", "uid", "status.conditions", "type"),
                    ResourceType.ALL_VERBS),
            new ResourceType("", "v1", "Pod", "pods", "pod", true, List.of("po"), NameRule.DNS1123_SUBDOMAIN,
                    Map.of("spec.nodeName", "/spec/nodeName",
                            "spec.restartPolicy", "/spec/restartPolicy",
                            "spec.schedulerName", "/spec/schedulerName",
                            "spec.serviceAccountName", "/spec/serviceAccountName",
                            "spec.hostNetwork", "/spec/hostNetwork",
                            "status.phase", "/status/phase",
                            "status.podIP", "/status/podIP",
                            "status.nominatedNodeName", "/status/nominatedNodeName"),
                    true, POD_SPEC_KEYS, ResourceType.ALL_VERBS),
            new ResourceType("", "v1", "ServiceAccount", "serviceaccounts", "serviceaccount", true, List.of("sa"),
                    NameRule.DNS1123_SUBDOMAIN, Map.of(), true,
                    Map.of("secrets", "name", "imagePullSecrets", "name", "metadata.ownerReferences", "uid"),
                    ResourceType.ALL_VERBS),
            new ResourceType("", "v1", "Event", "events", "event", true, List.of("ev"),
                    NameRule.DNS1123_SUBDOMAIN,
                    Map.ofEntries(
                            Map.entry("involvedObject.kind", "/involvedObject/kind"),
                            Map.entry("involvedObject.namespace", "/involvedObject/namespace"),
                            Map.entry("involvedObject.name", "/involvedObject/name"),
                            Map.entry("involvedObject.uid", "/involvedObject/uid"),
                            Map.entry("involvedObject.apiVersion", "/involvedObject/apiVersion"),
                            Map.entry("involvedObject.resourceVersion", "/involvedObject/resourceVersion"),
                            Map.entry("involvedObject.fieldPath", "/involvedObject/fieldPath"),
                            Map.entry("reason", "/reason"),
                            Map.entry("reportingComponent", "/reportingComponent"),
                            Map.entry("source", "/source/component"),
                            Map.entry("type", "/type")),
                    // an event recorder writes an event's next count by PUT, whether or not it is still there
                    true, Map.of("metadata.ownerReferences", "uid"), ResourceType.ALL_VERBS,
                    new UpdateStrategy(true, true)));

    private CoreTypes() {
    }
}
