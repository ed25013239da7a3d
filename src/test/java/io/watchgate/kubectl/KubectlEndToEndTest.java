package io.watchgate.kubectl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertLinesMatch;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import io.watchgate.kubectl.KubectlSession.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl against the gateway, each test a short kubectl session in a namespace of its own. kubectl runs
 * with a kubeconfig, HOME and discovery cache of the session's own (nothing of the developer's is read), and every
 * step's exit code, stdout and stderr is checked. Lines are compared with {@link
 * org.junit.jupiter.api.Assertions#assertLinesMatch}: equal, or matching as a regex (ages are {@code \d+s}), and
 * {@code >>>>} skips lines. Skipped where kubectl is not on PATH; CI ({@code .ci/run}) installs it.
 */
@QuarkusTest
class KubectlEndToEndTest {

    /** One kubectl command; they take well under a second here. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    /** How long a watching kubectl may take to print an event. */
    private static final Duration WATCH_DEADLINE = Duration.ofSeconds(30);
    private static final AtomicInteger SESSIONS = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** kubectl as found on PATH, or empty. */
    private static final Optional<Path> KUBECTL = onPath("kubectl");

    @TestHTTPResource("/")
    URL url;

    /** The session's files: kubeconfig, HOME, discovery cache, manifests, and each command's output. */
    private Path dir;
    private String namespace;
    private int commands;
    private final List<Process> background = new ArrayList<>();

    @BeforeEach
    void newSession() throws IOException {
        assumeTrue(KUBECTL.isPresent(), "kubectl not on PATH: .ci/run installs it");
        dir = Files.createTempDirectory("kubectl-e2e-");
        Files.createDirectories(dir.resolve("home"));
        namespace = "kubectl-e2e-" + SESSIONS.incrementAndGet();
        write("kubeconfig", """
                apiVersion: v1
                kind: Config
                clusters:
                - name: watchgate
                  cluster:
                    server: http://localhost:%d
                users:
                - name: anonymous
                  user: {}
                contexts:
                - name: watchgate
                  context:
                    cluster: watchgate
                    user: anonymous
                    namespace: %s
                current-context: watchgate
                """.formatted(url.getPort(), namespace));
        Path manifest = write("namespace.yaml", """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: %s
                """.formatted(namespace));
        succeeds(kubectl("apply", "-f", manifest.toString()), "namespace/" + namespace + " created");
    }

    @AfterEach
    void endSession() throws IOException {
        if (dir == null) {
            return;
        }
        background.forEach(KubectlEndToEndTest::stop);
        background.clear();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
        dir = null;
    }

    @Test
    void versionNamesTheGateway() {
        Result version = kubectl("version");
        succeeds(version, "Client Version: v1\\.\\d+\\.\\d+.*", ">>>>", "Server Version: v1.33.0+watchgate");
        System.out.println("kubectl end-to-end: " + KUBECTL.get() + ", " + version.lines().get(0));
    }

    @Test
    void applyCreatesThenConfiguresAndGetShowsIt() throws IOException {
        Path blue = configMapManifest("app.yaml", "color: blue");
        succeeds(kubectl("apply", "-f", blue.toString()), "configmap/app created");

        Path green = configMapManifest("app.yaml", "color: green");
        succeeds(kubectl("apply", "-f", green.toString()), "configmap/app configured");
        succeeds(kubectl("get", "configmap", "app", "-o", "jsonpath={.data.color}"), "green");
        succeeds(kubectl("apply", "-f", green.toString()), "configmap/app unchanged");

        succeeds(kubectl("get", "configmaps"),
                "NAME   DATA   AGE",
                "app    1      \\d+s");
        succeeds(kubectl("get", "cm", "app", "-o", "wide"),
                "NAME   DATA   AGE",
                "app    1      \\d+s");

        Result json = succeeds(kubectl("get", "configmap", "app", "-o", "json"));
        JsonNode object = JSON.readTree(json.stdout());
        assertEquals("v1", object.path("apiVersion").asText(), json::toString);
        assertEquals("ConfigMap", object.path("kind").asText(), json::toString);
        assertEquals("app", object.path("metadata").path("name").asText(), json::toString);
        assertEquals(namespace, object.path("metadata").path("namespace").asText(), json::toString);
        assertEquals(Map.of("color", "green"), JSON.convertValue(object.path("data"), Map.class), json::toString);
        assertTrue(object.path("metadata").path("resourceVersion").asText().matches("\\d+"), json::toString);
        assertTrue(object.path("metadata").path("uid").asText().matches("[0-9a-f-]{36}"), json::toString);
        JsonNode lastApplied = JSON.readTree(object.path("metadata").path("annotations")
                .path("kubectl.kubernetes.io/last-applied-configuration").asText());
        assertEquals("green", lastApplied.path("data").path("color").asText(), json::toString);
    }

    @Test
    void labelAnnotateAndThreeKindsOfPatch() throws IOException {
        Path app = configMapManifest("app.yaml", "color: blue");
        succeeds(kubectl("apply", "-f", app.toString()), "configmap/app created");

        succeeds(kubectl("label", "configmap", "app", "tier=web"), "configmap/app labeled");
        succeeds(kubectl("get", "configmaps", "-l", "tier=web", "--show-labels"),
                "NAME   DATA   AGE   LABELS",
                "app    1      \\d+s +tier=web");
        Result none = kubectl("get", "configmaps", "-l", "tier=db");
        assertEquals(0, none.exitCode(), none::toString);
        assertEquals("", none.stdout(), none::toString);
        assertEquals("No resources found in " + namespace + " namespace.\n", none.stderr(), none::toString);
        fails(kubectl("label", "configmap", "app", "tier=db"),
                "error: 'tier' already has a value (web), and --overwrite is false");

        succeeds(kubectl("annotate", "configmap", "app", "owner=platform-team"), "configmap/app annotated");
        succeeds(kubectl("get", "configmap", "app", "-o", "jsonpath={.metadata.annotations.owner}"), "platform-team");

        succeeds(kubectl("patch", "configmap", "app", "--type=merge", "-p", "{\"data\":{\"size\":\"L\"}}"),
                "configmap/app patched");
        succeeds(kubectl("get", "configmap", "app", "-o", "jsonpath={.data}"), "{\"color\":\"blue\",\"size\":\"L\"}");

        succeeds(kubectl("patch", "configmap", "app", "--type=json", "-p",
                "[{\"op\":\"test\",\"path\":\"/data/size\",\"value\":\"L\"},"
                        + "{\"op\":\"replace\",\"path\":\"/data/size\",\"value\":\"XL\"}]"),
                "configmap/app patched");
        succeeds(kubectl("get", "configmap", "app", "-o", "jsonpath={.data.size}"), "XL");
        fails(kubectl("patch", "configmap", "app", "--type=json", "-p",
                "[{\"op\":\"test\",\"path\":\"/data/size\",\"value\":\"S\"}]"),
                "The request is invalid: .+");

        // the default type is a strategic merge patch
        succeeds(kubectl("patch", "configmap", "app", "-p", "{\"data\":{\"shape\":\"round\"}}"),
                "configmap/app patched");
        succeeds(kubectl("patch", "configmap", "app", "-p", "{\"data\":{\"shape\":\"round\"}}"),
                "configmap/app patched (no change)");
        succeeds(kubectl("patch", "configmap", "app", "-p", "{\"metadata\":{\"labels\":{\"tier\":null}}}"),
                "configmap/app patched");
        succeeds(kubectl("get", "configmap", "app", "-o", "jsonpath={.data}|{.metadata.labels.tier}"),
                "{\"color\":\"blue\",\"shape\":\"round\",\"size\":\"XL\"}|");

        // on a list with a merge key, strategic merges by name where a merge patch replaces the list
        Path pod = write("web.yaml", """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web
                spec:
                  containers:
                  - name: app
                    image: nginx:1.25
                  - name: sidecar
                    image: busybox:1.36
                """);
        succeeds(kubectl("apply", "-f", pod.toString()), "pod/web created");
        succeeds(kubectl("get", "pods"),
                "NAME   READY   STATUS    RESTARTS   AGE",
                "web    0/2     Pending   0          \\d+s");
        String images = "jsonpath={range .spec.containers[*]}{.name}={.image}{\"\\n\"}{end}";
        succeeds(kubectl("patch", "pod", "web", "-p",
                "{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1.27\"}]}}"),
                "pod/web patched");
        succeeds(kubectl("get", "pod", "web", "-o", images), "app=nginx:1.27", "sidecar=busybox:1.36");
        succeeds(kubectl("patch", "pod", "web", "--type=merge", "-p",
                "{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1.28\"}]}}"),
                "pod/web patched");
        succeeds(kubectl("get", "pod", "web", "-o", images), "app=nginx:1.28");
    }

    @Test
    void getWatchPrintsWhatOtherCommandsWrite() throws IOException {
        Path app = configMapManifest("app.yaml", "color: blue");
        succeeds(kubectl("apply", "-f", app.toString()), "configmap/app created");

        Background watch = kubectlInBackground("get", "configmaps", "--watch", "--output-watch-events");
        List<String> expected = new ArrayList<>(List.of(
                "EVENT +NAME +DATA +AGE",
                "ADDED +app +1 +\\d+s"));
        awaitLines(watch, expected);

        succeeds(kubectl("patch", "configmap", "app", "--type=merge", "-p", "{\"data\":{\"size\":\"L\"}}"),
                "configmap/app patched");
        expected.add("MODIFIED +app +2 +\\d+s");
        awaitLines(watch, expected);

        Path other = write("other.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: other
                data:
                  k: v
                """);
        succeeds(kubectl("apply", "-f", other.toString()), "configmap/other created");
        expected.add("ADDED +other +1 +\\d+s");
        awaitLines(watch, expected);

        succeeds(kubectl("delete", "configmap", "app"), deleted("app"));
        expected.add("DELETED +app +2 +\\d+s");
        awaitLines(watch, expected);
    }

    @Test
    void deleteRemovesTheObject() throws IOException {
        Path app = configMapManifest("app.yaml", "color: blue");
        succeeds(kubectl("apply", "-f", app.toString()), "configmap/app created");

        succeeds(kubectl("delete", "configmap", "app"), deleted("app"));
        fails(kubectl("get", "configmap", "app"), "Error from server (NotFound): configmaps \"app\" not found");
        fails(kubectl("delete", "configmap", "app"), "Error from server (NotFound): configmaps \"app\" not found");
        Result ignored = succeeds(kubectl("delete", "configmap", "app", "--ignore-not-found"));
        assertEquals("", ignored.stdout(), ignored::toString);
        Result empty = kubectl("get", "configmaps");
        assertEquals(0, empty.exitCode(), empty::toString);
        assertEquals("", empty.stdout(), empty::toString);
        assertEquals("No resources found in " + namespace + " namespace.\n", empty.stderr(), empty::toString);
    }

    @Test
    void deleteCascadesToDependentsInTheForegroundOrOrphansThem() throws IOException {
        succeeds(kubectl("create", "configmap", "owner"), "configmap/owner created");
        succeeds(kubectl("create", "configmap", "keeper"), "configmap/keeper created");
        String owner = succeeds(kubectl("get", "configmap", "owner", "-o", "jsonpath={.metadata.uid}")).stdout();
        String keeper = succeeds(kubectl("get", "configmap", "keeper", "-o", "jsonpath={.metadata.uid}")).stdout();
        Path dependents = write("dependents.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: blocking
                  ownerReferences:
                  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: %s, blockOwnerDeletion: true}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: kept
                  ownerReferences:
                  - {apiVersion: v1, kind: ConfigMap, name: keeper, uid: %s}
                """.formatted(owner, keeper));
        succeeds(kubectl("apply", "-f", dependents.toString()), "configmap/blocking created", "configmap/kept created");

        // kubectl waits until the owner is gone: in the foreground, after the dependent that blocks it
        succeeds(kubectl("delete", "configmap", "owner", "--cascade=foreground"), deleted("owner"));
        fails(kubectl("get", "configmap", "blocking"), "Error from server (NotFound): configmaps \"blocking\" not found");
        succeeds(kubectl("delete", "configmap", "keeper", "--cascade=orphan"), deleted("keeper"));
        Result kept = succeeds(kubectl("get", "configmap", "kept", "-o", "jsonpath={.metadata.ownerReferences}"));
        assertEquals("", kept.stdout(), "the orphan lost its reference and stays: " + kept);
    }

    @Test
    void createGetAndScaleADeployment() {
        succeeds(kubectl("create", "deployment", "web", "--image=nginx:1.27"), "deployment.apps/web created");
        succeeds(kubectl("get", "deploy"), "NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE",
                "web\\s+0/1\\s+0\\s+0\\s+\\d+s");
        succeeds(kubectl("scale", "deployment", "web", "--replicas=3"), "deployment.apps/web scaled");
        succeeds(kubectl("get", "deployment", "web", "-o", "jsonpath={.spec.replicas} {.metadata.generation} "
                + "{.spec.template.spec.containers[0].imagePullPolicy}"), "3 2 IfNotPresent");
        // no controller: it stays at 0 ready, as a cluster without nodes would show it
        succeeds(kubectl("get", "deploy", "web", "-o", "wide"),
                "NAME\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+AGE\\s+CONTAINERS\\s+IMAGES\\s+SELECTOR",
                "web\\s+0/3\\s+0\\s+0\\s+\\d+s\\s+nginx\\s+nginx:1.27\\s+app=web");
    }

    @Test
    void serverSideApplyCreatesConflictsTakesOverAndPrunes() throws IOException {
        Path app = configMapManifest("app.yaml", "color: blue", "size: small");
        succeeds(kubectl("apply", "--server-side", "-f", app.toString()), "configmap/app serverside-applied");

        Path ops = configMapManifest("ops.yaml", "color: red");
        fails(kubectl("apply", "--server-side", "--field-manager=ops", "-f", ops.toString()),
                "error: Apply failed with 1 conflict: conflict with \"kubectl\": .data.color", ">>>>");
        succeeds(kubectl("apply", "--server-side", "--field-manager=ops", "--force-conflicts", "-f", ops.toString()),
                "configmap/app serverside-applied");

        // kubectl no longer applies size, which it alone owned: it goes; color is now ops' alone and stays
        Path smaller = configMapManifest("app.yaml", "other: x");
        succeeds(kubectl("apply", "--server-side", "-f", smaller.toString()), "configmap/app serverside-applied");
        succeeds(kubectl("get", "configmap", "app", "-o", "jsonpath={.data} "
                + "{range .metadata.managedFields[*]}{.manager}:{.operation} {end}"),
                "\\{\"color\":\"red\",\"other\":\"x\"\\} "
                        + "(kubectl:Apply ops:Apply |ops:Apply kubectl:Apply )"); // oldest first, by the second
    }

    @Test
    void serverSideApplyTakesOverFromClientSideApply() throws IOException {
        succeeds(kubectl("apply", "-f", configMapManifest("app.yaml", "color: blue").toString()),
                "configmap/app created");
        succeeds(kubectl("apply", "--server-side", "-f", configMapManifest("app.yaml", "color: green").toString()),
                "configmap/app serverside-applied");
        // no conflict with its own client-side fields, which kubectl then moved into its Apply entry; the
        // annotation it keeps for a later client-side apply is applied by a manager of its own
        succeeds(kubectl("get", "configmap", "app", "-o",
                "jsonpath={.data.color} {range .metadata.managedFields[*]}{.manager}:{.operation} {end}"),
                "green kubectl:Apply kubectl-last-applied:Apply ");
        // the annotation was kept current, so client-side apply still works after
        succeeds(kubectl("apply", "-f", configMapManifest("app.yaml", "color: white").toString()),
                "configmap/app configured");
        succeeds(kubectl("get", "configmap", "app", "-o", "jsonpath={.data.color}"), "white");
    }

    @Test
    void eventsListsTheNamespacesEventsOldestFirst() throws IOException {
        Path events = write("events.yaml", """
                apiVersion: v1
                kind: Event
                metadata: {name: web.1}
                involvedObject: {kind: Deployment, name: web, apiVersion: apps/v1}
                reason: ScalingReplicaSet
                message: Scaled up replica set web-1 to 3
                type: Normal
                source: {component: deployment-controller}
                firstTimestamp: "2026-12-07T10:00:00Z"
                lastTimestamp: "2026-12-07T10:00:00Z"
                count: 1
                ---
                apiVersion: v1
                kind: Event
                metadata: {name: web.2}
                involvedObject: {kind: Pod, name: web-1-abc, apiVersion: v1}
                reason: FailedScheduling
                message: no nodes available to schedule pods
                type: Warning
                source: {component: default-scheduler}
                firstTimestamp: "2026-12-07T10:00:05Z"
                lastTimestamp: "2026-12-07T10:00:05Z"
                count: 2
                """);
        succeeds(kubectl("create", "-f", events.toString()), "event/web.1 created", "event/web.2 created");
        succeeds(kubectl("events"), "LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE",
                ".*Normal\\s+ScalingReplicaSet\\s+Deployment/web\\s+Scaled up replica set web-1 to 3",
                ".*Warning\\s+FailedScheduling\\s+Pod/web-1-abc\\s+no nodes available to schedule pods.*");
    }

    @Test
    void typedCreateCommandsSendProtobuf() {
        succeeds(kubectl("create", "configmap", "settings", "--from-literal=mode=fast", "--from-literal=size=3"),
                "configmap/settings created");
        succeeds(kubectl("get", "configmap", "settings", "-o", "jsonpath={.data.mode} {.data.size}"), "fast 3");
        succeeds(kubectl("create", "secret", "generic", "login", "--from-literal=user=admin"),
                "secret/login created");
        succeeds(kubectl("get", "secret", "login", "-o", "jsonpath={.data.user}"), "YWRtaW4=");
        String team = namespace + "-team";
        succeeds(kubectl("create", "namespace", team), "namespace/" + team + " created");
        succeeds(kubectl("get", "namespace", team), "NAME +STATUS +AGE", team + " +Active +\\d+s");
        succeeds(kubectl("delete", "namespace", team), "namespace \"" + team + "\" deleted");
    }

    @Test
    void aCustomResourceDefinitionAddsAType() throws IOException {
        String group = namespace + ".example.com";
        Path crd = write("crd.yaml", """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: widgets.%1$s
                spec:
                  group: %1$s
                  scope: Namespaced
                  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wdg]}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    additionalPrinterColumns:
                    - {name: Size, type: integer, jsonPath: .spec.size}
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec:
                            type: object
                            description: What the widget should be.
                            properties:
                              size: {type: integer, minimum: 1, description: How big it is.}
                """.formatted(group));
        succeeds(kubectl("apply", "-f", crd.toString()),
                "customresourcedefinition.apiextensions.k8s.io/widgets." + group + " created");
        Path widget = write("widget.yaml", """
                apiVersion: %s/v1
                kind: Widget
                metadata: {name: w1}
                spec: {size: 3}
                """.formatted(group));
        succeeds(kubectl("apply", "-f", widget.toString()), "widget." + group + "/w1 created");
        succeeds(kubectl("get", "widgets." + group), "NAME +SIZE", "w1 +3");
        succeeds(kubectl("explain", "widgets." + group + ".spec.size"),
                "GROUP: +" + group.replace(".", "\\."), "KIND: +Widget", "VERSION: +v1", "",
                "FIELD: size <integer>", ">>>>", "DESCRIPTION:", " +How big it is\\.", ">>>>");
        Path tooSmall = write("small.yaml", """
                apiVersion: %s/v1
                kind: Widget
                metadata: {name: w2}
                spec: {size: 0}
                """.formatted(group));
        Result refused = kubectl("apply", "-f", tooSmall.toString());
        assertEquals(1, refused.exitCode(), refused::toString);
        assertTrue(refused.stderr().contains("spec.size in body should be greater than or equal to 1"),
                refused::toString);
        succeeds(kubectl("delete", "-f", crd.toString()),
                "customresourcedefinition.apiextensions.k8s.io \"widgets." + group + "\" deleted");
        Result gone = kubectl("get", "widgets." + group);
        assertEquals(1, gone.exitCode(), gone::toString);
    }

    @Test
    void rbacRolesBindingsAndTheAggregatedDefaults() {
        succeeds(kubectl("create", "role", "pod-reader", "--verb=get,list,watch", "--resource=pods"),
                "role.rbac.authorization.k8s.io/pod-reader created");
        succeeds(kubectl("create", "rolebinding", "alice-reads-pods", "--role=pod-reader", "--user=alice"),
                "rolebinding.rbac.authorization.k8s.io/alice-reads-pods created");
        String clusterRole = namespace + ":pod-watcher"; // RBAC names are path segments: colons are fine
        succeeds(kubectl("create", "clusterrole", clusterRole, "--verb=watch", "--resource=pods"),
                "clusterrole.rbac.authorization.k8s.io/" + clusterRole + " created");
        succeeds(kubectl("create", "clusterrolebinding", namespace + "-devs-view", "--clusterrole=view",
                "--group=devs"), "clusterrolebinding.rbac.authorization.k8s.io/" + namespace + "-devs-view created");

        succeeds(kubectl("get", "roles,rolebindings"),
                "NAME +CREATED AT",
                "role\\.rbac\\.authorization\\.k8s\\.io/pod-reader +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ",
                "",
                "NAME +ROLE +AGE",
                "rolebinding\\.rbac\\.authorization\\.k8s\\.io/alice-reads-pods +Role/pod-reader +\\d+s");
        succeeds(kubectl("get", "rolebinding", "alice-reads-pods", "-o", "wide"),
                "NAME +ROLE +AGE +USERS +GROUPS +SERVICEACCOUNTS",
                "alice-reads-pods +Role/pod-reader +\\d+s +alice *");
        succeeds(kubectl("get", "clusterrolebinding", namespace + "-devs-view", "-o", "wide"),
                "NAME +ROLE +AGE +USERS +GROUPS +SERVICEACCOUNTS",
                namespace + "-devs-view +ClusterRole/view +\\d+s +devs *");
        succeeds(kubectl("get", "clusterrole", clusterRole, "-o", "jsonpath={.rules[0].verbs} {.rules[0].resources}"),
                "\\[\"watch\"\\] \\[\"pods\"\\]");
        succeeds(kubectl("create", "rolebinding", "bad", "--clusterrole=view", "--user=alice", "--dry-run=server",
                "-o", "name"), "rolebinding.rbac.authorization.k8s.io/bad");

        succeeds(kubectl("explain", "role.rules.verbs"),
                "GROUP: +rbac\\.authorization\\.k8s\\.io", "KIND: +Role", "VERSION: +v1", "",
                "FIELD: verbs <\\[\\]string>", ">>>>");

        // view holds the rules it aggregates, filled in before the first request was taken
        succeeds(kubectl("get", "clusterrole", "view", "-o", "yaml"),
                "aggregationRule:",
                "  clusterRoleSelectors:",
                "  - matchLabels:",
                "      rbac.authorization.k8s.io/aggregate-to-view: \"true\"",
                "apiVersion: rbac.authorization.k8s.io/v1",
                "kind: ClusterRole",
                "metadata:",
                ">>>>",
                "rules:",
                "- apiGroups:",
                "  - \"\"",
                "  resources:",
                "  - pods",
                "  - serviceaccounts",
                "  - services",
                "  - configmaps",
                "  verbs:",
                "  - get",
                "  - list",
                "  - watch",
                ">>>>");
    }

    @Test
    void apiResourcesAndExplain() {
        succeeds(kubectl("api-resources"),
                "NAME +SHORTNAMES +APIVERSION +NAMESPACED +KIND",
                ">>>>",
                "configmaps +cm +v1 +true +ConfigMap",
                ">>>>",
                "namespaces +ns +v1 +false +Namespace",
                ">>>>");

        succeeds(kubectl("explain", "configmap.data"),
                "KIND: +ConfigMap",
                "VERSION: +v1",
                "",
                "FIELD: data <map[string]string>",
                ">>>>",
                "DESCRIPTION:",
                " +Data contains the configuration data\\. .*",
                ">>>>");
    }

    @Test
    void applyRefusesAnUnknownField() throws IOException {
        Path bad = write("bad.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: app
                colour: red
                data:
                  color: blue
                """);
        fails(kubectl("apply", "-f", bad.toString()),
                "Error from server (BadRequest): error when creating \"" + bad + "\": ConfigMap in version \"v1\" "
                        + "cannot be handled as a ConfigMap: strict decoding error: unknown field \"colour\"");
        fails(kubectl("get", "configmap", "app"), "Error from server (NotFound): configmaps \"app\" not found");

        // on an existing object apply patches, and the patched object is checked the same way
        Path app = configMapManifest("app.yaml", "color: blue");
        succeeds(kubectl("apply", "-f", app.toString()), "configmap/app created");
        fails(kubectl("apply", "-f", bad.toString()),
                "Error from server (BadRequest): error when applying patch:",
                ">>>>",
                "for: \"" + bad + "\": error when patching \"" + bad + "\": ConfigMap in version \"v1\" "
                        + "cannot be handled as a ConfigMap: strict decoding error: unknown field \"colour\"");
        succeeds(kubectl("get", "configmap", "app", "-o", "jsonpath={.data.color}"), "blue");
    }

    // ---- the session's helpers

    /** A ConfigMap named app (in the kubeconfig's namespace) with the given data lines. */
    private Path configMapManifest(String file, String... data) throws IOException {
        return write(file, """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: app
                data:
                """ + Arrays.stream(data).map(line -> "  " + line + "\n").reduce("", String::concat));
    }

    /** kubectl's line for a deleted object; newer versions name the namespace. */
    private String deleted(String name) {
        return "configmap \"" + name + "\" deleted( from " + Pattern.quote(namespace) + " namespace)?";
    }

    private Result kubectl(String... args) {
        int n = ++commands;
        Path out = dir.resolve("out-" + n);
        Path err = dir.resolve("err-" + n);
        String command = "kubectl " + String.join(" ", args);
        try {
            Process process = start(args, out, err);
            if (!process.waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                stop(process);
                fail("did not finish in " + COMMAND_TIMEOUT + ": " + new Result(command, -1, read(out), read(err)));
            }
            return new Result(command, process.exitValue(), read(out), read(err));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Background(String command, Process process, Path stdout, Path stderr) {
    }

    private Background kubectlInBackground(String... args) {
        int n = ++commands;
        Path out = dir.resolve("out-" + n);
        Path err = dir.resolve("err-" + n);
        Process process = start(args, out, err);
        background.add(process);
        return new Background("kubectl " + String.join(" ", args) + " &", process, out, err);
    }

    private Process start(String[] args, Path out, Path err) {
        List<String> command = new ArrayList<>(List.of(KUBECTL.get().toString(),
                "--kubeconfig", dir.resolve("kubeconfig").toString(),
                "--cache-dir", dir.resolve("cache").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        Map<String, String> env = builder.environment();
        String path = env.get("PATH");
        env.clear();
        env.put("PATH", path);
        env.put("HOME", dir.resolve("home").toString());
        env.put("KUBECONFIG", dir.resolve("kubeconfig").toString());
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the background command has printed exactly the expected lines (so far). */
    private void awaitLines(Background command, List<String> expected) {
        long deadline = System.nanoTime() + WATCH_DEADLINE.toNanos();
        while (true) {
            String printed = read(command.stdout());
            List<String> lines = printed.substring(0, printed.lastIndexOf('\n') + 1).lines().toList();
            if (lines.size() >= expected.size()) {
                assertLinesMatch(expected, lines, () -> transcript(command));
                return;
            }
            if (!command.process().isAlive()) {
                fail("ended before printing what was expected:" + transcript(command));
            }
            if (System.nanoTime() > deadline) {
                fail("did not print what was expected within " + WATCH_DEADLINE + ":" + transcript(command));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static String transcript(Background command) {
        return "\n$ " + command.command() + "\n[stdout]\n" + read(command.stdout()) + "[stderr]\n"
                + read(command.stderr());
    }

    /** Exit code 0 and nothing on stderr. */
    private static Result succeeds(Result result) {
        assertEquals(0, result.exitCode(), result::toString);
        assertEquals("", result.stderr(), result::toString);
        return result;
    }

    /** Exit code 0, nothing on stderr, and these stdout lines. */
    private static void succeeds(Result result, String firstLine, String... moreLines) {
        succeeds(result);
        List<String> expected = new ArrayList<>(List.of(firstLine));
        expected.addAll(List.of(moreLines));
        assertLinesMatch(expected, result.lines(), result::toString);
    }

    /** Exit code 1, nothing on stdout, and these stderr lines. */
    private static void fails(Result result, String... stderr) {
        assertEquals(1, result.exitCode(), result::toString);
        assertEquals("", result.stdout(), result::toString);
        assertLinesMatch(List.of(stderr), result.stderr().lines().toList(), result::toString);
    }

    private Path write(String file, String content) throws IOException {
        return Files.writeString(dir.resolve(file), content);
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void stop(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Arrays.stream(path.split(File.pathSeparator)).filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry, program))
                .filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                .findFirst();
    }
}
