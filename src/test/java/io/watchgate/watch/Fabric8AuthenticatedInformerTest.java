package io.watchgate.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.authz.RbacOn;
import io.watchgate.authz.Users;
import io.watchgate.tls.TestPki;
import io.watchgate.tls.TestTls;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An unmodified fabric8 client as a user of a production server configures it: HTTPS checked against the server's
 * CA, and a bearer token or a client certificate. Its informer converges over WebSocket and over a chunked stream
 * on what RBAC grants that user, and the user is refused what it does not grant.
 */
@QuarkusTest
@TestProfile(RbacOn.class)
class Fabric8AuthenticatedInformerTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    @TestHTTPResource(value = "/", tls = true)
    URL https;

    private KubernetesClient admin;
    private KubernetesClient client;
    private SharedIndexInformer<ConfigMap> informer;

    @ParameterizedTest
    @CsvSource({"TOKEN,WEB_SOCKET", "TOKEN,CHUNKED_HTTP", "CLIENT_CERTIFICATE,WEB_SOCKET",
        "CLIENT_CERTIFICATE,CHUNKED_HTTP"})
    void anInformerOfAnAuthenticatedUserConvergesOnWhatItMayWatch(String credential, String transport)
            throws Exception {
        String namespace = "auth-informer-" + NAMESPACES.incrementAndGet() + "-" + System.nanoTime() % 100000;
        admin = client(namespace, base().withOauthToken(Users.ADMIN.token()), false);
        admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName(namespace).endMetadata().build()).create();
        String user = credential.equals("TOKEN") ? "alice" : "dana";
        admin.rbac().roleBindings().inNamespace(namespace).resource(new io.fabric8.kubernetes.api.model.rbac
                .RoleBindingBuilder().withNewMetadata().withName("viewers").endMetadata().withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName("view").endRoleRef()
                .addNewSubject().withApiGroup("rbac.authorization.k8s.io").withKind("User").withName(user)
                .endSubject().build()).create();
        create(namespace, "before", "v1");

        ConfigBuilder own = base();
        if (credential.equals("TOKEN")) {
            own.withOauthToken(Users.ALICE.token());
        } else {
            TestPki.Issued dana = TestTls.CLIENT_CA.client("CN=dana,O=readers");
            Path dir = Files.createTempDirectory("dana");
            dana.writeCertificate(dir.resolve("tls.crt"));
            dana.writeKey(dir.resolve("tls.key"));
            own.withClientCertFile(dir.resolve("tls.crt").toString()).withClientKeyFile(dir.resolve("tls.key")
                    .toString()).withClientKeyAlgo("EC");
        }
        client = client(namespace, own, transport.equals("CHUNKED_HTTP"));
        informer = client.configMaps().inNamespace(namespace).inform();
        create(namespace, "after", "v1");
        admin.configMaps().inNamespace(namespace).withName("before").edit(cm -> new ConfigMapBuilder(cm)
                .withData(Map.of("k", "v2")).build());
        awaitCache(Map.of("after", "v1", "before", "v2"));

        KubernetesClientException refused = Assertions.assertThrows(KubernetesClientException.class,
                () -> client.configMaps().inNamespace(namespace).resource(configMap("mine", "v1")).create());
        assertEquals(403, refused.getCode());
        assertTrue(refused.getMessage().contains("User \"" + user + "\" cannot create resource \"configmaps\""),
                refused.getMessage());
    }

    @AfterEach
    void close() {
        if (informer != null) {
            informer.close();
        }
        for (KubernetesClient each : new KubernetesClient[] {client, admin}) {
            if (each != null) {
                each.close();
            }
        }
    }

    private ConfigBuilder base() {
        return new ConfigBuilder(Config.empty())
                // only what is said here: no ~/.kube/config, service account or KUBERNETES_* variables
                .withAutoConfigure(false)
                .withMasterUrl(https.toString())
                .withCaCertFile(TestTls.SERVER_CA_FILE.toString())
                .withWatchReconnectInterval(100)
                .withWatchReconnectLimit(-1);
    }

    private static KubernetesClient client(String namespace, ConfigBuilder config, boolean onlyHttpWatches) {
        return new KubernetesClientBuilder().withConfig(config.withNamespace(namespace)
                .withOnlyHttpWatches(onlyHttpWatches).build()).build();
    }

    private void create(String namespace, String name, String value) {
        admin.configMaps().inNamespace(namespace).resource(configMap(name, value)).create();
    }

    private static ConfigMap configMap(String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().withData(Map.of("k", value))
                .build();
    }

    private void awaitCache(Map<String, String> expected) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        Map<String, String> cached = Map.of();
        while (System.nanoTime() < deadline) {
            cached = new TreeMap<>();
            for (ConfigMap each : informer.getStore().list()) {
                cached.put(each.getMetadata().getName(), each.getData().get("k"));
            }
            if (cached.equals(expected)) {
                return;
            }
            Thread.sleep(20); // polled until the deadline: the cache itself decides
        }
        assertEquals(expected, cached, "the informer's cache, after " + DEADLINE);
    }
}
