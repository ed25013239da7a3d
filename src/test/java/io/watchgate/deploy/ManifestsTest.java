package io.watchgate.deploy;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The manifests in k8s/ against the application they deploy: every file parses and is listed, names and selectors
 * tie the objects together, the probes hit health endpoints that answer, the port is the one the server listens
 * on, every configuration key is one the application has, and the pod is locked down.
 */
@QuarkusTest
class ManifestsTest {

    /** The management interface, where health and metrics are served. */
    @TestHTTPResource(value = "/", management = true)
    URI management;

    private static final Path K8S = Path.of("k8s");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Map<String, JsonNode> BASE = new HashMap<>();
    private static Properties defaults;

    @BeforeAll
    static void read() throws IOException {
        for (Path file : yamlFiles(K8S.resolve("base"))) {
            JsonNode manifest = YAML.readTree(file.toFile());
            if (!manifest.path("kind").asText().equals("Kustomization")) {
                BASE.put(manifest.path("kind").asText() + "/" + manifest.at("/metadata/name").asText(), manifest);
            }
        }
        defaults = new Properties();
        try (var in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            defaults.load(in);
        }
    }

    private static List<Path> yamlFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static JsonNode base(String kindAndName) {
        JsonNode manifest = BASE.get(kindAndName);
        assertNotNull(manifest, kindAndName + " is not in k8s/base: " + BASE.keySet());
        return manifest;
    }

    private static JsonNode container() {
        JsonNode containers = base("StatefulSet/watchgate").at("/spec/template/spec/containers");
        assertEquals(1, containers.size());
        return containers.get(0);
    }

    private static Map<String, String> labels(JsonNode node) {
        Map<String, String> labels = new HashMap<>();
        node.fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }

    /** The application.properties of the ConfigMap a kustomization generates as watchgate-config. */
    private static Properties generatedConfig(Path kustomizationDir) throws IOException {
        JsonNode kustomization = YAML.readTree(kustomizationDir.resolve("kustomization.yaml").toFile());
        for (JsonNode generator : kustomization.path("configMapGenerator")) {
            if (generator.path("name").asText().equals("watchgate-config")) {
                Properties config = new Properties();
                try (var in = Files.newBufferedReader(kustomizationDir.resolve(generator.at("/files/0").asText()))) {
                    config.load(in);
                }
                return config;
            }
        }
        throw new AssertionError(kustomizationDir + " generates no watchgate-config");
    }

    private static Properties baseConfig() throws IOException {
        return generatedConfig(K8S.resolve("base"));
    }

    @Test
    void everyManifestParsesAndEveryKustomizationListsFilesThatExist() throws IOException {
        List<Path> files = yamlFiles(K8S);
        assertTrue(files.size() >= 10, files.toString());
        for (Path file : files) {
            JsonNode manifest = YAML.readTree(file.toFile());
            assertFalse(manifest.path("apiVersion").asText().isEmpty(), file + " has no apiVersion");
            assertFalse(manifest.path("kind").asText().isEmpty(), file + " has no kind");
            if (!List.of("Kustomization", "Component").contains(manifest.path("kind").asText())) {
                assertFalse(manifest.at("/metadata/name").asText().isEmpty(), file + " has no name");
                continue;
            }
            List<String> listed = new ArrayList<>();
            manifest.path("resources").forEach(r -> listed.add(r.asText()));
            manifest.path("patches").forEach(p -> listed.add(p.path("path").asText()));
            manifest.path("configMapGenerator").forEach(g -> g.path("files").forEach(f -> listed.add(f.asText())));
            for (String entry : listed) {
                assertTrue(Files.exists(file.getParent().resolve(entry)), file + " lists " + entry + ", missing");
            }
        }
        List<String> baseFiles = new ArrayList<>();
        YAML.readTree(K8S.resolve("base/kustomization.yaml").toFile()).path("resources")
                .forEach(r -> baseFiles.add(r.asText()));
        for (Path file : yamlFiles(K8S.resolve("base"))) {
            String name = file.getFileName().toString();
            assertTrue(name.equals("kustomization.yaml") || baseFiles.contains(name), name + " is not in the base");
        }
    }

    @Test
    void theContainerServesOnTheServersPortsAndTheServicesAndPolicyReachThem() {
        Map<String, Integer> ports = new HashMap<>();
        container().path("ports").forEach(p -> ports.put(p.path("name").asText(), p.path("containerPort").asInt()));
        assertEquals(Map.of("http", Integer.parseInt(defaults.getProperty("quarkus.http.port")),
                "https", Integer.parseInt(defaults.getProperty("quarkus.http.ssl-port")),
                "management", Integer.parseInt(defaults.getProperty("quarkus.management.port"))), ports);
        for (String service : List.of("Service/watchgate", "Service/watchgate-headless")) {
            assertEquals(List.of("http", "https"), base(service).at("/spec/ports").findValuesAsText("targetPort"),
                    service + " reaches the API, not the management port");
        }
        List<String> named = container().path("ports").findValuesAsText("name");
        for (JsonNode rule : base("NetworkPolicy/watchgate").at("/spec/ingress")) {
            for (JsonNode allowed : rule.path("ports")) {
                assertTrue(named.contains(allowed.path("port").asText()), "the NetworkPolicy opens " + allowed);
            }
        }
        JsonNode statefulSet = base("StatefulSet/watchgate");
        assertEquals("watchgate-headless", statefulSet.at("/spec/serviceName").asText());
        assertEquals("None", base("Service/watchgate-headless").at("/spec/clusterIP").asText());
        assertEquals(1, statefulSet.at("/spec/replicas").asInt(), "one writer per data directory");
    }

    @Test
    void everySelectorSelectsThePods() {
        Map<String, String> pods = labels(base("StatefulSet/watchgate").at("/spec/template/metadata/labels"));
        Map<String, JsonNode> selectors = Map.of(
                "StatefulSet", base("StatefulSet/watchgate").at("/spec/selector/matchLabels"),
                "Service", base("Service/watchgate").at("/spec/selector"),
                "headless Service", base("Service/watchgate-headless").at("/spec/selector"),
                "PodDisruptionBudget", base("PodDisruptionBudget/watchgate").at("/spec/selector/matchLabels"),
                "NetworkPolicy", base("NetworkPolicy/watchgate").at("/spec/podSelector/matchLabels"));
        selectors.forEach((what, selector) -> {
            Map<String, String> wanted = labels(selector);
            assertFalse(wanted.isEmpty(), what + " selects every pod of the namespace");
            wanted.forEach((k, v) -> assertEquals(v, pods.get(k), what + " selects " + k + "=" + v));
        });
    }

    @Test
    void theProbesAskHealthEndpointsThatAnswer() {
        JsonNode container = container();
        Map<String, String> probes = Map.of("startupProbe", "/q/health/started", "readinessProbe", "/q/health/ready",
                "livenessProbe", "/q/health/live");
        probes.forEach((probe, path) -> {
            assertEquals(path, container.at("/" + probe + "/httpGet/path").asText(), probe);
            assertEquals("management", container.at("/" + probe + "/httpGet/port").asText(), probe);
            given().get(management.resolve(path)).then().statusCode(200);
            given().get(path).then().statusCode(404);
        });
        JsonNode scrape = base("StatefulSet/watchgate").at("/spec/template/metadata/annotations");
        assertEquals(defaults.getProperty("quarkus.management.port"), scrape.path("prometheus.io/port").asText());
        given().get(management.resolve(scrape.path("prometheus.io/path").asText())).then().statusCode(200);
    }

    @Test
    void theConfigurationHoldsOnlyKeysTheApplicationHasAndPutsTheDataOnTheVolume() throws IOException {
        List<Properties> configs = List.of(baseConfig(), generatedConfig(K8S.resolve("overlays/dev")));
        String readme = Files.readString(Path.of("README.md"));
        JsonNode container = container();
        String dataMount = null;
        String configMount = null;
        for (JsonNode mount : container.path("volumeMounts")) {
            if (mount.path("name").asText().equals("data")) {
                dataMount = mount.path("mountPath").asText();
            }
            if (mount.path("name").asText().equals("config")) {
                configMount = mount.path("mountPath").asText();
            }
        }
        assertNotNull(dataMount);
        assertEquals(configMount + "/application.properties", container.path("env").findValues("value").stream()
                .map(JsonNode::asText).filter(v -> v.endsWith(".properties")).findFirst().orElse(""));
        for (Properties config : configs) {
            for (String key : config.stringPropertyNames()) {
                assertTrue(defaults.containsKey(key) || readme.contains("`" + key + "`"),
                        key + " is no configuration key of the application");
            }
            assertTrue(config.getProperty("watchgate.storage.data-dir").startsWith(dataMount + "/"),
                    "the data directory is on the volume");
            assertEquals("durable", config.getProperty("watchgate.storage.mode"));
        }
        assertEquals("data", base("StatefulSet/watchgate").at("/spec/volumeClaimTemplates/0/metadata/name").asText());
        assertEquals("watchgate-config", base("StatefulSet/watchgate").at("/spec/template/spec/volumes").findValues(
                "configMap").get(0).path("name").asText(), "the generated ConfigMap (kustomize adds its hash)");
    }

    @Test
    void theEtcdOverlayRunsStatelessReplicasOnTheEtcdMembersItNames() throws IOException {
        Path overlay = K8S.resolve("overlays/etcd");
        Properties config = generatedConfig(overlay);
        String readme = Files.readString(Path.of("README.md"));
        for (String key : config.stringPropertyNames()) {
            assertTrue(defaults.containsKey(key) || readme.contains("`" + key + "`"),
                    key + " is no configuration key of the application");
        }
        assertEquals("etcd", config.getProperty("watchgate.storage.mode"));
        Map<String, JsonNode> etcd = new HashMap<>();
        try (var documents = YAML.readerFor(JsonNode.class).<JsonNode>readValues(overlay.resolve("etcd.yaml")
                .toFile())) {
            documents.forEachRemaining(d -> etcd.put(d.path("kind").asText() + "/" + d.at("/metadata/name").asText(),
                    d));
        }
        JsonNode members = etcd.get("StatefulSet/etcd");
        String service = members.at("/spec/serviceName").asText();
        assertTrue(etcd.containsKey("Service/" + service), "the members' Service");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < members.at("/spec/replicas").asInt(); i++) {
            expected.add("http://etcd-" + i + "." + service + ":2379");
        }
        assertEquals(expected, List.of(config.getProperty("watchgate.storage.etcd.endpoints").split(",")),
                "the gateways know every member");
        long maxRequest = 0;
        for (JsonNode arg : members.at("/spec/template/spec/containers/0/args")) {
            if (arg.asText().startsWith("--max-request-bytes=")) {
                maxRequest = Long.parseLong(arg.asText().substring("--max-request-bytes=".length()));
            }
        }
        assertTrue(maxRequest > org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("watchgate.objects.max-bytes", Long.class),
                "etcd takes the largest object watchgate stores");

        JsonNode deployment = YAML.readTree(overlay.resolve("deployment.yaml").toFile());
        assertTrue(deployment.at("/spec/replicas").asInt() >= 2);
        JsonNode pod = deployment.at("/spec/template/spec");
        assertTrue(pod.path("volumes").findValues("persistentVolumeClaim").isEmpty(), "no per-pod state");
        assertEquals(base("StatefulSet/watchgate").at("/spec/template/spec/containers/0/readinessProbe/httpGet"),
                pod.at("/containers/0/readinessProbe/httpGet"));
        String tokens = pod.at("/containers/0/volumeMounts").findParents("name").stream()
                .filter(m -> m.path("name").asText().equals("tokens")).findFirst().orElseThrow()
                .path("mountPath").asText();
        assertTrue(config.getProperty("watchgate.auth.token-file").startsWith(tokens + "/"), "the token Secret");
        assertEquals(deployment.at("/spec/selector/matchLabels"), base("Service/watchgate").at("/spec/selector"),
                "the Service spreads clients over every replica");
    }

    @Test
    void theCertManagerComponentMountsTheSecretItsCertificateFillsAndPointsTheTlsFilesAtIt() throws IOException {
        Path component = K8S.resolve("components/cert-manager");
        JsonNode certificate = YAML.readTree(component.resolve("certificate.yaml").toFile());
        JsonNode patch = YAML.readTree(component.resolve("statefulset-tls.yaml").toFile());
        JsonNode issuer = YAML.readTree(component.resolve("issuer.yaml").toFile());
        assertEquals(issuer.at("/metadata/name").asText(), certificate.at("/spec/issuerRef/name").asText());
        JsonNode secret = patch.at("/spec/template/spec/volumes/0");
        assertEquals(certificate.at("/spec/secretName").asText(), secret.at("/secret/secretName").asText());
        assertEquals(0440, secret.at("/secret/defaultMode").asInt(), "readable by the pod's fsGroup, not the world");
        JsonNode container = patch.at("/spec/template/spec/containers/0");
        assertEquals(container().path("name").asText(), container.path("name").asText());
        String mount = container.at("/volumeMounts/0/mountPath").asText();
        assertEquals(secret.path("name").asText(), container.at("/volumeMounts/0/name").asText());
        String readme = Files.readString(Path.of("README.md"));
        Map<String, String> env = new HashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));
        assertEquals(Map.of("WATCHGATE_TLS_CERT_FILE", mount + "/tls.crt", "WATCHGATE_TLS_KEY_FILE", mount + "/tls.key"),
                env, "cert-manager's file names, in the mounted Secret");
        for (String name : env.keySet()) {
            String key = name.toLowerCase(java.util.Locale.ROOT).replace("watchgate_tls_", "watchgate.tls.")
                    .replace('_', '-');
            assertTrue(readme.contains("`" + key + "`"), name + " is no configuration key of the application");
        }
        assertTrue(container().path("ports").findValuesAsText("containerPort").contains(
                defaults.getProperty("quarkus.http.ssl-port")), "the base serves the HTTPS port");
    }

    @Test
    void thePodIsLockedDownAndHasTimeToDrain() throws IOException {
        JsonNode pod = base("StatefulSet/watchgate").at("/spec/template/spec");
        JsonNode security = container().path("securityContext");
        assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean());
        assertEquals("RuntimeDefault", pod.at("/securityContext/seccompProfile/type").asText());
        assertTrue(security.path("readOnlyRootFilesystem").asBoolean());
        assertFalse(security.path("allowPrivilegeEscalation").asBoolean(true));
        assertEquals("ALL", security.at("/capabilities/drop/0").asText());
        assertFalse(pod.path("automountServiceAccountToken").asBoolean(true));
        assertNotNull(BASE.get("ServiceAccount/" + pod.path("serviceAccountName").asText()));
        assertTrue(container().at("/resources/limits/memory").isTextual(), "a memory limit");
        assertTrue(container().at("/resources/requests/cpu").isTextual(), "a CPU request");
        assertCoversTheShutdown(pod.path("terminationGracePeriodSeconds").asLong(), baseConfig(), "base");
        JsonNode devPatch = YAML.readTree(K8S.resolve("overlays/dev/statefulset-small.yaml").toFile());
        assertCoversTheShutdown(devPatch.at("/spec/template/spec/terminationGracePeriodSeconds").asLong(),
                generatedConfig(K8S.resolve("overlays/dev")), "dev overlay");
    }

    /** The delay, up to 10 s of ending watches, and quarkus.shutdown.timeout for the requests in flight. */
    private static void assertCoversTheShutdown(long graceSeconds, Properties config, String where) {
        Duration delay = Duration.parse("PT" + config.getProperty("quarkus.shutdown.delay").toUpperCase());
        Duration timeout = Duration.parse("PT" + config.getProperty("quarkus.shutdown.timeout",
                defaults.getProperty("quarkus.shutdown.timeout")).toUpperCase());
        assertTrue(graceSeconds >= delay.toSeconds() + 10 + timeout.toSeconds(),
                where + ": a grace period of " + graceSeconds + " s does not cover the shutdown");
    }
}
