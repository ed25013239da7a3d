package io.watchgate.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.BooleanWithUndefined;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.Map;

/**
 * The greeting's dependent, managed the framework's way: it states the desired ConfigMap and the framework writes
 * it with server-side apply (its field manager, force) and makes the greeting its owner, so the gateway's garbage
 * collector deletes it with the greeting. The framework applies every other kind by default; ConfigMaps and Secrets
 * it creates and updates with plain writes unless told, as here, to apply them too.
 */
@KubernetesDependent(useSSA = BooleanWithUndefined.TRUE)
public class GreetingConfigMap extends CRUDKubernetesDependentResource<ConfigMap, Greeting> {

    public GreetingConfigMap() {
        super(ConfigMap.class);
    }

    static String nameFor(Greeting greeting) {
        return greeting.getMetadata().getName() + "-greeting";
    }

    @Override
    protected ConfigMap desired(Greeting greeting, Context<Greeting> context) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(nameFor(greeting))
                .withNamespace(greeting.getMetadata().getNamespace())
                .addToLabels("app.kubernetes.io/managed-by", "greeting-operator")
                .endMetadata()
                .withData(Map.of("message", greeting.getSpec().message))
                .build();
    }
}
