package io.watchgate.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.watchgate.etcd.EtcdServer;
import io.watchgate.persistence.PackagedApp;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The example operator ({@link GreetingReconciler}, Java Operator SDK unmodified) against the packaged gateway, in
 * each storage mode, as a user with only the rights its ClusterRole gives: of two replicas one leads, it applies each
 * greeting's ConfigMap and reports in the status, the other takes over when the leader stops, and deleting a
 * greeting lets the gateway's garbage collector take its ConfigMap.
 */
class OperatorIT {

    private static final Duration STEP = Duration.ofSeconds(30);
    private static final String NAMESPACE = "greetings";
    private static final String ADMIN_TOKEN = "admin-token";
    private static final String OPERATOR_TOKEN = "greeting-operator-token";

    private final List<AutoCloseable> running = new ArrayList<>();
    private Path logs;

    @AfterEach
    void stop() throws Exception {
        for (int i = running.size() - 1; i >= 0; i--) {
            running.get(i).close();
        }
    }

    @Test
    void inMemory() throws Exception {
        PackagedApp gateway = gateway("memory", "watchgate.storage.mode=memory");
        operateOn(gateway.uri("/"), gateway.uri("/"));
    }

    @Test
    void durable() throws Exception {
        PackagedApp gateway = gateway("durable");
        operateOn(gateway.uri("/"), gateway.uri("/"));
    }

    @Test
    @EnabledIf("io.watchgate.etcd.EtcdServer#isInstalled")
    void inEtcdModeEachOperatorReplicaOnItsOwnGatewayReplica() throws Exception {
        EtcdServer etcd = EtcdServer.start();
        running.add(etcd);
        String[] etcdMode = {"watchgate.storage.mode=etcd", "watchgate.storage.etcd.endpoints=" + etcd.endpoint()};
        PackagedApp first = gateway("etcd-0", etcdMode);
        PackagedApp second = gateway("etcd-1", etcdMode);
        operateOn(first.uri("/"), second.uri("/"));
    }

    private void operateOn(URI gatewayOfA, URI gatewayOfB) throws Exception {
        KubernetesClient user = client(gatewayOfA, ADMIN_TOKEN);
        running.add(user);
        user.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
                .create();
        for (String manifest : List.of("greetings.crd.yaml", "greeting-operator.rbac.yaml")) {
            try (InputStream resources = OperatorIT.class.getResourceAsStream(manifest)) {
                user.load(resources).create();
            }
        }
        for (URI gateway : List.of(gatewayOfA, gatewayOfB)) {
            try (KubernetesClient operator = client(gateway, OPERATOR_TOKEN)) {
                await("the operator's rights reach " + gateway, () -> {
                    try {
                        return operator.leases().inNamespace(NAMESPACE).withName(GreetingOperator.LEASE).get() == null;
                    } catch (KubernetesClientException forbidden) {
                        return null;
                    }
                });
            }
        }
        await("the definition is established", () -> user.apiextensions().v1().customResourceDefinitions()
                .withName("greetings." + Greeting.GROUP).get().getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True")));

        GreetingOperator a = GreetingOperator.start(gatewayOfA, OPERATOR_TOKEN, NAMESPACE, "operator-a");
        running.add(a);
        GreetingOperator b = GreetingOperator.start(gatewayOfB, OPERATOR_TOKEN, NAMESPACE, "operator-b");
        running.add(b);
        String leader = await("one replica holds the lease", () -> holder(user));
        GreetingOperator follower = leader.equals(a.identity()) ? b : a;

        Greeting created;
        try (InputStream hello = OperatorIT.class.getResourceAsStream("hello.greeting.yaml")) {
            created = user.resources(Greeting.class).inNamespace(NAMESPACE).load(hello).create();
        }

        ConfigMap dependent = await("the leader applies the ConfigMap", () -> configMapSaying(user, "Hello"));
        OwnerReference owner = dependent.getMetadata().getOwnerReferences().get(0);
        assertEquals(List.of("Greeting", "hello", created.getMetadata().getUid()),
                List.of(owner.getKind(), owner.getName(), owner.getUid()), "owned by the greeting");
        ManagedFieldsEntry applied = entryOf(dependent.getMetadata().getManagedFields(), null);
        assertEquals("Apply", applied.getOperation(), "the ConfigMap is written with server-side apply");
        assertTrue(applied.getFieldsV1().getAdditionalProperties().toString().contains("f:message"),
                "the operator owns the fields it applied: " + applied.getFieldsV1().getAdditionalProperties());

        Greeting reported = await("the leader reports in the status", () -> statusOf(user, 1L));
        assertEquals(List.of("hello-greeting", leader),
                List.of(reported.getStatus().configMap, reported.getStatus().reconciledBy));
        assertEquals("Apply", entryOf(reported.getMetadata().getManagedFields(), "status").getOperation(),
                "the status is written with server-side apply");

        GreetingOperator leading = leader.equals(a.identity()) ? a : b;
        running.remove(leading);
        leading.close();
        await("the other replica takes the lease", () -> follower.identity().equals(holder(user)) ? true : null);
        // a merge patch with no resourceVersion: the new leader may be writing the status at this moment
        user.resources(Greeting.class).inNamespace(NAMESPACE).withName("hello")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"message\":\"Bonjour\"}}");
        await("the new leader applies the change", () -> configMapSaying(user, "Bonjour"));
        Greeting again = await("the new leader reports it", () -> statusOf(user, 2L));
        assertEquals(follower.identity(), again.getStatus().reconciledBy);

        user.resources(Greeting.class).inNamespace(NAMESPACE).withName("hello").delete();
        await("the garbage collector deletes the ConfigMap with its owner", () ->
                user.configMaps().inNamespace(NAMESPACE).withName("hello-greeting").get() == null ? true : null);
    }

    private static ConfigMap configMapSaying(KubernetesClient user, String message) {
        ConfigMap map = user.configMaps().inNamespace(NAMESPACE).withName("hello-greeting").get();
        return map != null && message.equals(map.getData().get("message")) ? map : null;
    }

    private static Greeting statusOf(KubernetesClient user, long generation) {
        Greeting greeting = user.resources(Greeting.class).inNamespace(NAMESPACE).withName("hello").get();
        return greeting.getStatus() != null && Objects.equals(generation, greeting.getStatus().observedGeneration)
                ? greeting : null;
    }

    private static String holder(KubernetesClient user) {
        Lease lease = user.leases().inNamespace(NAMESPACE).withName(GreetingOperator.LEASE).get();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    private static ManagedFieldsEntry entryOf(List<ManagedFieldsEntry> entries, String subresource) {
        return entries.stream().filter(e -> e.getManager().equals(GreetingReconciler.NAME)
                        && Objects.equals(subresource, e.getSubresource())).findFirst()
                .orElseThrow(() -> new AssertionError("no entry of " + GreetingReconciler.NAME + " for "
                        + subresource + " in " + entries));
    }

    /** A gateway that authenticates by token and authorizes by RBAC, with an administrator and the operator's user. */
    private PackagedApp gateway(String name, String... storage) throws Exception {
        if (logs == null) {
            logs = Files.createTempDirectory("operator-it-");
            Files.writeString(logs.resolve("tokens.csv"), ADMIN_TOKEN + ",admin,admin-uid,system:masters\n"
                    + OPERATOR_TOKEN + ",greeting-operator,greeting-operator-uid\n");
        }
        List<String> properties = new ArrayList<>(List.of(storage));
        properties.addAll(List.of("watchgate.auth.anonymous=false", "watchgate.auth.authorization-mode=RBAC",
                "watchgate.auth.token-file=" + logs.resolve("tokens.csv")));
        PackagedApp app = PackagedApp.start(logs.resolve(name), logs.resolve(name + ".log"),
                properties.toArray(String[]::new));
        running.add(app);
        return app;
    }

    private static KubernetesClient client(URI gateway, String token) {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder().withAutoConfigure(false)
                .withMasterUrl(gateway.toString()).withOauthToken(token).build()).build();
    }

    /** Polls until {@code condition} gives a value (null: not yet), for at most {@link #STEP}. */
    private static <T> T await(String what, Supplier<T> condition) throws InterruptedException {
        long deadline = System.nanoTime() + STEP.toNanos();
        while (true) {
            T value = condition.get();
            if (value != null && !Boolean.FALSE.equals(value)) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                fail("not within " + STEP + ": " + what);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
