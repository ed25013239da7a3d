package io.watchgate.operator;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * One replica of the example operator, as its main method starts it in a pod: Java Operator SDK with its defaults
 * (server-side apply of the status), leader election on, against one gateway. The README's "Running controllers
 * against watchgate" runs it with {@link #main}.
 */
public final class GreetingOperator implements AutoCloseable {

    public static final String LEASE = "greeting-operator";

    private final String identity;
    private final Operator operator;

    private GreetingOperator(String identity, Operator operator) {
        this.identity = identity;
        this.operator = operator;
    }

    /**
     * Runs a replica until the process is stopped, against the cluster of the current kubeconfig ($KUBECONFIG, else
     * ~/.kube/config), with its lease in that context's namespace; {@code args[0]} names the replica (by default a
     * random name).
     */
    public static void main(String[] args) throws InterruptedException {
        Config config = Config.autoConfigure(null);
        String identity = args.length > 0 ? args[0] : "greeting-operator-" + UUID.randomUUID();
        GreetingOperator replica = start(config, Objects.requireNonNullElse(config.getNamespace(), "default"),
                identity);
        Runtime.getRuntime().addShutdownHook(new Thread(replica::close));
        Thread.currentThread().join();
    }

    /**
     * Starts a replica named {@code identity} against {@code gateway} with a bearer {@code token}, its lease in
     * {@code leaseNamespace}.
     */
    public static GreetingOperator start(URI gateway, String token, String leaseNamespace, String identity) {
        // only what is said here: no ~/.kube/config, service account or KUBERNETES_* variables
        return start(new ConfigBuilder().withAutoConfigure(false).withMasterUrl(gateway.toString())
                .withOauthToken(token).build(), leaseNamespace, identity);
    }

    /**
     * The lease times are a third of client-go's defaults (15 s, 10 s, 2 s) and a quarter of its retry period: a
     * replica that stops takes the reconciling with it for 5 s at most (the framework closes its client as it stops,
     * so its release of the lease does not reach the server, and the lease runs out), and a leader still has 4 s
     * to renew on a busy machine.
     */
    private static GreetingOperator start(Config config, String leaseNamespace, String identity) {
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        Operator operator = new Operator(overrider -> overrider
                .withKubernetesClient(client)
                .withCloseClientOnStop(true)
                .withLeaderElectionConfiguration(new LeaderElectionConfiguration(LEASE, leaseNamespace,
                        Duration.ofSeconds(5), Duration.ofSeconds(4), Duration.ofMillis(500), identity, null,
                        false))); // a replica that stops leading stops reconciling; it does not end the JVM
        operator.register(new GreetingReconciler(identity));
        operator.start();
        return new GreetingOperator(identity, operator);
    }

    public String identity() {
        return identity;
    }

    /** Stops reconciling and releases the lease, as the framework does when its pod is stopped. */
    @Override
    public void close() {
        operator.stop();
    }
}
