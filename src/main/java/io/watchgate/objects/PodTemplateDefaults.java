package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What kube-apiserver fills into a pod template's spec (pkg/apis/core/v1/defaults.go, SetDefaults_PodSpec and
 * SetDefaults_Container, as the generated defaulters walk a template): the scheduling and restart defaults, and each
 * container's pull policy, termination message and port protocols. A Pod's own defaults (service links, requests
 * from limits) are not a template's.
 */
final class PodTemplateDefaults {

    private PodTemplateDefaults() {
    }

    /** Defaults the template at {@code template} (its {@code spec}), if it is an object. */
    static void apply(JsonNode template) {
        if (!(template.path("spec") instanceof ObjectNode spec)) {
            return;
        }
        textIfAbsent(spec, "dnsPolicy", "ClusterFirst");
        textIfAbsent(spec, "restartPolicy", "Always");
        if (!spec.hasNonNull("securityContext")) {
            spec.putObject("securityContext");
        }
        if (!spec.hasNonNull("terminationGracePeriodSeconds")) {
            spec.put("terminationGracePeriodSeconds", 30);
        }
        textIfAbsent(spec, "schedulerName", "default-scheduler");
        for (String list : new String[] { "containers", "initContainers" }) {
            for (JsonNode container : spec.path(list)) {
                if (container instanceof ObjectNode c) {
                    container(c);
                }
            }
        }
    }

    private static void container(ObjectNode container) {
        if (!container.hasNonNull("resources")) {
            container.putObject("resources");
        }
        textIfAbsent(container, "terminationMessagePath", "/dev/termination-log");
        textIfAbsent(container, "terminationMessagePolicy", "File");
        textIfAbsent(container, "imagePullPolicy", pullPolicy(container.path("image").asText("")));
        for (JsonNode port : container.path("ports")) {
            if (port instanceof ObjectNode p) {
                textIfAbsent(p, "protocol", "TCP");
            }
        }
    }

    /**
     * Always for an image at {@code latest} (named so, or with neither tag nor digest), IfNotPresent otherwise, as
     * SetDefaults_Container reads the image's reference.
     */
    static String pullPolicy(String image) {
        if (image.isEmpty()) {
            return "IfNotPresent";
        }
        int at = image.indexOf('@');
        String named = at < 0 ? image : image.substring(0, at);
        int slash = named.lastIndexOf('/');
        int colon = named.indexOf(':', slash + 1);
        String tag = colon < 0 ? (at < 0 ? "latest" : "") : named.substring(colon + 1);
        return tag.equals("latest") ? "Always" : "IfNotPresent";
    }

    static void textIfAbsent(ObjectNode object, String field, String value) {
        JsonNode present = object.get(field);
        if (present == null || present.isNull() || (present.isTextual() && present.textValue().isEmpty())) {
            object.put(field, value);
        }
    }
}
