package io.watchgate.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.watchgate.store.HistoryCompaction;
import io.watchgate.store.Store;
import io.watchgate.watch.fanout.WatchHubs;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An unmodified fabric8 Kubernetes client, configured as a user would configure it, keeps an informer's cache
 * equal to the gateway's state: through watch events, and through a relist when the resourceVersion it would
 * resume from was compacted away while it could not watch. Over both transports fabric8 watches with: WebSocket
 * (its default) and a chunked HTTP stream ({@code onlyHttpWatches}).
 */
@QuarkusTest
class Fabric8InformerTest {

    /** How long an informer may take to catch up; it normally takes milliseconds. */
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    enum Transport {
        WEB_SOCKET, CHUNKED_HTTP
    }

    @TestHTTPResource("/")
    URL url;

    @Inject
    WatchHubs hubs;

    @Inject
    Store store;

    @Inject
    HistoryCompaction history;

    @Inject
    WatchRequestLog watchRequests;

    private String namespace;
    private KubernetesClient client;
    private SharedIndexInformer<ConfigMap> informer;
    private final List<String> deletedByWatchEvent = new CopyOnWriteArrayList<>();
    private final List<String> deletedByRelist = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @EnumSource(Transport.class)
    void anInformerConvergesThroughCreatesUpdatesAndDeletes(Transport transport) {
        connectToAFreshNamespace(transport);
        create("listed-then-updated", Map.of("k", "v1"));
        create("listed-then-deleted", Map.of("k", "v1"));
        startInformer();
        assertInformerConverges();

        create("watched-then-updated", Map.of("k", "v1"));
        create("watched-then-deleted", Map.of("k", "v1"));
        update("listed-then-updated", Map.of("k", "v2"));
        update("watched-then-updated", Map.of("k", "v2"));
        update("watched-then-updated", Map.of("k", "v3", "extra", "x"));
        delete("listed-then-deleted");
        delete("watched-then-deleted");
        create("watched-last", Map.of("k", "v1"));

        assertEquals(List.of("listed-then-updated", "watched-last", "watched-then-updated"),
                List.copyOf(assertInformerConverges().keySet()));
        assertEquals(Map.of("k", "v3", "extra", "x"), cached("watched-then-updated").getData());
        awaitCondition("both deletions delivered as watch events", () -> deletedByWatchEvent.size() == 2);
        assertEquals(List.of("listed-then-deleted", "watched-then-deleted"), deletedByWatchEvent);
        assertEquals(List.of(), deletedByRelist, "no relist was needed");
        assertWatchedOver(transport);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void anInformerRelistsAfterItsResourceVersionIsCompacted(Transport transport) throws Exception {
        connectToAFreshNamespace(transport);
        create("survivor", Map.of("k", "v1"));
        create("doomed", Map.of("k", "v1"));
        startInformer();
        // a change seen through the watch: the watch is live on the server before it is drained
        update("survivor", Map.of("k", "v2"));
        assertInformerConverges();
        long lastSeen = Long.parseLong(informer.lastSyncResourceVersion());

        long refusedBefore = watchRequests.refusedIn(namespace);
        long historyStart;
        hubs.drain().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            delete("doomed");
            create("newcomer", Map.of("k", "v1"));
            update("survivor", Map.of("k", "v3"));
            update("newcomer", Map.of("k", "v2"));
            history.compactTo(store.currentRevision(), 1000);
            historyStart = store.oldestRevision();
            assertTrue(historyStart > lastSeen, "history now starts after the informer's resourceVersion " + lastSeen);

            // the informer keeps re-watching with backoff, and each attempt is refused while the gateway drains
            awaitCondition("the informer's re-watches refused with 503",
                    () -> watchRequests.refusedIn(namespace) >= refusedBefore + 2);
            assertNotNull(cached("doomed"), "the informer cannot have learnt of the deletion while it could not watch");
        } finally {
            hubs.resume();
        }

        // its next watch, from the compacted resourceVersion, ends with a 410 Expired ERROR event: it lists again
        assertEquals(List.of("newcomer", "survivor"), List.copyOf(assertInformerConverges().keySet()));
        awaitCondition("the deletion learnt from the relist", () -> deletedByRelist.contains("doomed"));
        assertEquals(List.of(), deletedByWatchEvent);
        assertTrue(watchRequests.in(namespace).stream().anyMatch(r -> r.status().get() != 503
                && r.resourceVersion() >= lastSeen && r.resourceVersion() < historyStart),
                "a watch from the informer's compacted resourceVersion was served (and expired): "
                        + watchRequests.in(namespace));

        // and it watches on from the relist: later changes arrive as events again
        update("newcomer", Map.of("k", "v3"));
        delete("survivor");
        assertEquals(List.of("newcomer"), List.copyOf(assertInformerConverges().keySet()));
        awaitCondition("the later deletion delivered as a watch event", () -> deletedByWatchEvent.contains("survivor"));
        assertWatchedOver(transport);
    }

    // --- the client, as a user configures it

    private void connectToAFreshNamespace(Transport transport) {
        namespace = "informer-" + NAMESPACES.incrementAndGet() + "-" + System.nanoTime() % 100000;
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                // only what is said here: no ~/.kube/config, service account or KUBERNETES_* variables
                .withAutoConfigure(false)
                .withMasterUrl(url.toString())
                .withNamespace(namespace)
                .withTrustCerts(true)
                .withOnlyHttpWatches(transport == Transport.CHUNKED_HTTP)
                // re-watch quickly (100 ms, doubling up to 3.2 s) and never give up
                .withWatchReconnectInterval(100)
                .withWatchReconnectLimit(-1)
                .build()).build();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                .build()).create();
    }

    @AfterEach
    void disconnect() {
        if (informer != null) {
            informer.close();
        }
        if (client != null) {
            client.close();
        }
    }

    private void startInformer() {
        informer = client.configMaps().inNamespace(namespace).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap map) {
            }

            @Override
            public void onUpdate(ConfigMap before, ConfigMap after) {
            }

            @Override
            public void onDelete(ConfigMap map, boolean deletedFinalStateUnknown) {
                // "final state unknown": the object was missing from a relist, no DELETED event told of it
                (deletedFinalStateUnknown ? deletedByRelist : deletedByWatchEvent).add(map.getMetadata().getName());
            }
        }, 0);
    }

    // --- the informer's cache and the server's state

    private ConfigMap cached(String name) {
        return informer.getStore().getByKey(namespace + "/" + name);
    }

    /**
     * Waits until the informer's cache holds exactly the server's objects at the same resourceVersions, checks
     * their data too, and returns the resourceVersions by name.
     */
    private Map<String, String> assertInformerConverges() {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            List<ConfigMap> onServer = client.configMaps().inNamespace(namespace).list().getItems();
            Map<String, String> expected = versionsByName(onServer);
            Map<String, String> actual = versionsByName(informer.getIndexer().list());
            if (expected.equals(actual)) {
                for (ConfigMap map : onServer) {
                    assertEquals(map.getData(), cached(map.getMetadata().getName()).getData(),
                            "data of " + map.getMetadata().getName());
                }
                return expected;
            }
            if (System.nanoTime() > deadline) {
                fail("the informer did not converge within " + DEADLINE + ": server " + expected + ", informer "
                        + actual + "; watch requests: " + watchRequests.in(namespace));
            }
            pause();
        }
    }

    private static Map<String, String> versionsByName(Collection<ConfigMap> maps) {
        return maps.stream().collect(Collectors.toMap(m -> m.getMetadata().getName(),
                m -> m.getMetadata().getResourceVersion(), (a, b) -> a + " and " + b, TreeMap::new));
    }

    private void awaitCondition(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + DEADLINE + ": " + what + "; watch requests: " + watchRequests.in(namespace));
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private void assertWatchedOver(Transport transport) {
        List<WatchRequestLog.WatchRequest> requests = watchRequests.in(namespace);
        assertFalse(requests.isEmpty(), "the informer watched");
        assertTrue(requests.stream().allMatch(r -> r.webSocket() == (transport == Transport.WEB_SOCKET)),
                "every watch over " + transport + ": " + requests);
    }

    // --- writes, as a user of the client makes them

    private void create(String name, Map<String, String> data) {
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder()
                .withNewMetadata().withName(name).endMetadata().withData(data).build()).create();
    }

    private void update(String name, Map<String, String> data) {
        client.configMaps().inNamespace(namespace).withName(name)
                .edit(map -> new ConfigMapBuilder(map).withData(data).build());
    }

    private void delete(String name) {
        assertFalse(client.configMaps().inNamespace(namespace).withName(name).delete().isEmpty(), name + " deleted");
    }

    /**
     * Notes every watch request for a namespace of this test (its query, WebSocket or not, the status answered)
     * so that the test can tell what the informer asked for and what it was told.
     */
    @ApplicationScoped
    static class WatchRequestLog {

        private static final String PREFIX = "/api/v1/namespaces/";

        /** {@code status} stays 0 for a WebSocket upgrade that was accepted. */
        record WatchRequest(String namespace, String query, boolean webSocket, AtomicInteger status) {

            /** The resourceVersion the watch starts from, or -1 without one. */
            long resourceVersion() {
                for (String parameter : query.split("&")) {
                    if (parameter.startsWith("resourceVersion=")) {
                        return Long.parseLong(parameter.substring("resourceVersion=".length()));
                    }
                }
                return -1;
            }

            @Override
            public String toString() {
                return (webSocket ? "WebSocket " : "HTTP ") + query + " -> "
                        + (status.get() == 0 ? "upgraded" : status.get());
            }
        }

        private final List<WatchRequest> requests = new CopyOnWriteArrayList<>();

        void install(@Observes Router router) {
            router.get().order(8_000).handler(context -> {
                String path = context.normalizedPath();
                String query = context.request().query();
                int end = path.indexOf('/', PREFIX.length());
                if (path.startsWith(PREFIX + "informer-") && end > 0 && query != null && query.contains("watch=true")) {
                    WatchRequest request = new WatchRequest(path.substring(PREFIX.length(), end), query,
                            "websocket".equalsIgnoreCase(context.request().getHeader(HttpHeaders.UPGRADE)),
                            new AtomicInteger());
                    requests.add(request);
                    context.addHeadersEndHandler(v -> request.status().set(context.response().getStatusCode()));
                }
                context.next();
            });
        }

        List<WatchRequest> in(String namespace) {
            return requests.stream().filter(r -> r.namespace().equals(namespace)).toList();
        }

        long refusedIn(String namespace) {
            return in(namespace).stream().filter(r -> r.status().get() == 503).count();
        }
    }
}
