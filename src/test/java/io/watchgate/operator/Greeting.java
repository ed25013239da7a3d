package io.watchgate.operator;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The example operator's custom resource: a greeting to publish, in a ConfigMap the operator keeps, and what the
 * operator last did in its status subresource. Its definition, as users install it, is
 * {@code greetings.crd.yaml} beside this class's resources.
 */
@Group(Greeting.GROUP)
@Version("v1")
public class Greeting extends CustomResource<Greeting.Spec, Greeting.Status> implements Namespaced {

    public static final String GROUP = "example.watchgate.io";

    public static class Spec {
        public String message;
    }

    public static class Status {
        public String configMap;
        public Long observedGeneration;
        public String reconciledBy;
    }
}
