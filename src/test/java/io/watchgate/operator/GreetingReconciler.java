package io.watchgate.operator;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;

/**
 * Reconciles a greeting: the workflow applies its ConfigMap, then the status says which ConfigMap, for which
 * generation, and which operator replica did it. The status goes as the framework sends it by default: a server-side
 * apply of the status subresource that carries only the status.
 */
@ControllerConfiguration(name = GreetingReconciler.NAME)
@Workflow(dependents = @Dependent(type = GreetingConfigMap.class))
public class GreetingReconciler implements Reconciler<Greeting> {

    public static final String NAME = "greetings";

    private final String replica;

    public GreetingReconciler(String replica) {
        this.replica = replica;
    }

    @Override
    public UpdateControl<Greeting> reconcile(Greeting greeting, Context<Greeting> context) {
        Greeting status = new Greeting();
        status.setMetadata(new ObjectMetaBuilder().withName(greeting.getMetadata().getName())
                .withNamespace(greeting.getMetadata().getNamespace()).build());
        Greeting.Status reported = new Greeting.Status();
        reported.configMap = GreetingConfigMap.nameFor(greeting);
        reported.observedGeneration = greeting.getMetadata().getGeneration();
        reported.reconciledBy = replica;
        status.setStatus(reported);
        return UpdateControl.patchStatus(status);
    }
}
