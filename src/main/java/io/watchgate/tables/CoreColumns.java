package io.watchgate.tables;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The columns kube-apiserver's printers give the served core types (pkg/printers/internalversion), and the
 * Name/Age pair every other type gets.
 */
final class CoreColumns {

    private CoreColumns() {
    }

    static final Column NAME = new Column("Name", "string", "name",
            "Name must be unique within a namespace.", 0, (o, now) -> o.path("metadata").path("name").asText());

    static final Column AGE = Column.of("Age", "string",
            "CreationTimestamp is a timestamp representing the server time when this object was created.",
            (o, now) -> age(o.path("metadata").path("creationTimestamp"), now));

    static final List<Column> DEFAULT = List.of(NAME, AGE);

    static final Map<String, List<Column>> BY_RESOURCE = Map.of(
            "namespaces", List.of(NAME,
                    Column.of("Status", "string", "The status of the namespace",
                            (o, now) -> text(o.path("status").path("phase"), "Active")),
                    AGE),
            "configmaps", List.of(NAME,
                    Column.of("Data", "integer", "Number of data entries",
                            (o, now) -> (long) (o.path("data").size() + o.path("binaryData").size())),
                    AGE),
            "secrets", List.of(NAME,
                    Column.of("Type", "string", "The type of the secret",
                            (o, now) -> text(o.path("type"), "Opaque")),
                    Column.of("Data", "integer", "Number of data entries", (o, now) -> (long) o.path("data").size()),
                    AGE),
            "serviceaccounts", List.of(NAME,
                    Column.of("Secrets", "integer", "Number of secrets", (o, now) -> (long) o.path("secrets").size()),
                    AGE),
            "services", List.of(NAME,
                    Column.of("Type", "string", "The type of the service",
                            (o, now) -> text(o.path("spec").path("type"), "ClusterIP")),
                    Column.of("Cluster-IP", "string", "The cluster IP of the service",
                            (o, now) -> text(o.path("spec").path("clusterIP"), "<none>")),
                    Column.of("External-IP", "string", "The external IPs of the service",
                            (o, now) -> externalIps(o)),
                    Column.of("Port(s)", "string", "The ports of the service", (o, now) -> ports(o)),
                    AGE,
                    Column.of("Selector", "string", "The label selector of the service",
                            (o, now) -> selector(o.path("spec").path("selector"))).wide()),
            "pods", List.of(NAME,
                    Column.of("Ready", "string", "The aggregate readiness state of this pod for accepting traffic.",
                            (o, now) -> ready(o)),
                    Column.of("Status", "string", "The aggregate status of the containers in this pod.",
                            (o, now) -> podStatus(o)),
                    Column.of("Restarts", "string", "The number of times the containers in this pod have been "
                            + "restarted.", (o, now) -> Long.toString(restarts(o))),
                    AGE,
                    Column.of("IP", "string", "The IP address assigned to the pod",
                            (o, now) -> text(o.path("status").path("podIP"), "<none>")).wide(),
                    Column.of("Node", "string", "The node the pod is assigned to",
                            (o, now) -> text(o.path("spec").path("nodeName"), "<none>")).wide()),
            "events", List.of(
                    Column.of("Last Seen", "string", "The last time the event was seen",
                            (o, now) -> age(lastSeen(o), now)),
                    Column.of("Type", "string", "The type of the event", (o, now) -> text(o.path("type"), "")),
                    Column.of("Reason", "string", "The reason of the event", (o, now) -> text(o.path("reason"), "")),
                    Column.of("Object", "string", "The object the event is about", (o, now) -> involved(o)),
                    Column.of("Message", "string", "The message of the event",
                            (o, now) -> text(o.path("message"), ""))));

    static String age(JsonNode timestamp, Instant now) {
        if (!timestamp.isTextual() || timestamp.asText().isEmpty()) {
            return "<unknown>";
        }
        try {
            return HumanDuration.of(Duration.between(Instant.parse(timestamp.asText()), now));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    static String text(JsonNode node, String otherwise) {
        return node.isValueNode() && !node.asText().isEmpty() ? node.asText() : otherwise;
    }

    private static String externalIps(JsonNode service) {
        List<String> ips = new ArrayList<>();
        service.path("spec").path("externalIPs").forEach(ip -> ips.add(ip.asText()));
        service.path("status").path("loadBalancer").path("ingress").forEach(ingress ->
                ips.add(ingress.has("ip") ? ingress.path("ip").asText() : ingress.path("hostname").asText()));
        if (!ips.isEmpty()) {
            return String.join(",", ips);
        }
        return "LoadBalancer".equals(service.path("spec").path("type").asText()) ? "<pending>" : "<none>";
    }

    private static String ports(JsonNode service) {
        List<String> ports = new ArrayList<>();
        for (JsonNode port : service.path("spec").path("ports")) {
            String protocol = text(port.path("protocol"), "TCP");
            ports.add(port.has("nodePort")
                    ? port.path("port").asText() + ":" + port.path("nodePort").asText() + "/" + protocol
                    : port.path("port").asText() + "/" + protocol);
        }
        return ports.isEmpty() ? "<none>" : String.join(",", ports);
    }

    private static String selector(JsonNode selector) {
        List<String> pairs = new ArrayList<>();
        selector.fields().forEachRemaining(e -> pairs.add(e.getKey() + "=" + e.getValue().asText()));
        return pairs.isEmpty() ? "<none>" : String.join(",", pairs);
    }

    private static String ready(JsonNode pod) {
        int total = pod.path("spec").path("containers").size();
        int ready = 0;
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            if (status.path("ready").asBoolean(false)) {
                ready++;
            }
        }
        return ready + "/" + total;
    }

    private static long restarts(JsonNode pod) {
        long restarts = 0;
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            restarts += status.path("restartCount").asLong(0);
        }
        return restarts;
    }

    /** The printer's reading of a pod's state, in its main cases. */
    private static String podStatus(JsonNode pod) {
        if (pod.path("metadata").has("deletionTimestamp")) {
            return "Terminating";
        }
        String reason = text(pod.path("status").path("reason"), text(pod.path("status").path("phase"), "Pending"));
        for (JsonNode status : pod.path("status").path("containerStatuses")) {
            JsonNode waiting = status.path("state").path("waiting").path("reason");
            JsonNode terminated = status.path("state").path("terminated").path("reason");
            if (waiting.isTextual() && !waiting.asText().isEmpty()) {
                reason = waiting.asText();
            } else if (terminated.isTextual() && !terminated.asText().isEmpty()) {
                reason = terminated.asText();
            }
        }
        return reason;
    }

    private static JsonNode lastSeen(JsonNode event) {
        for (String field : List.of("lastTimestamp", "eventTime", "firstTimestamp")) {
            if (event.path(field).isTextual() && !event.path(field).asText().isEmpty()) {
                return event.path(field);
            }
        }
        return event.path("metadata").path("creationTimestamp");
    }

    private static String involved(JsonNode event) {
        JsonNode object = event.path("involvedObject");
        return object.path("kind").asText().toLowerCase() + "/" + object.path("name").asText();
    }
}
