import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The training run of the ahead-of-time cache (train.sh): the requests a server answers in its first minutes, so
 * that the classes they load and the methods they run are in the cache. Discovery and OpenAPI as kubectl reads them,
 * a namespace, writes of every kind (create, update, merge, strategic and JSON patch, server-side apply, delete),
 * lists as JSON and as a Table, a custom resource definition and its objects, a Lease, and watches over chunked
 * JSON and Server-Sent Events that must see every write.
 *
 * <p>Only the JDK: it is compiled in the image build and run on the JRE. It waits for the server to answer, and
 * exits with 1 on the first answer that is not what the API promises, so that a broken server fails the build
 * rather than train the cache on errors.
 */
public final class AotTraining {

    private static final String NS = "aot-training";
    private static final Pattern RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"(\\d+)\"");

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final int objects;

    private AotTraining(String base, int objects) {
        this.base = base;
        this.objects = objects;
    }

    /** Arguments: the server's URL (http://127.0.0.1:8080), and how many objects to write each way (200). */
    public static void main(String[] args) throws Exception {
        AotTraining training = new AotTraining(args.length > 0 ? args[0] : "http://127.0.0.1:8080",
                args.length > 1 ? Integer.parseInt(args[1]) : 200);
        training.awaitServer();
        training.run();
        System.out.println("AOT training: done");
    }

    private void awaitServer() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (send("GET", "/version", null, null).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        fail("the server did not answer " + base + "/version within 120 s");
    }

    private void run() throws Exception {
        for (String path : new String[] {"/version", "/api", "/apis", "/api/v1", "/apis/apps/v1", "/openapi/v2",
                "/openapi/v3", "/openapi/v3/api/v1"}) {
            expect(200, "GET", path, null, null);
        }
        expect(201, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + NS + "\"}}", "application/json");
        String configMaps = "/api/v1/namespaces/" + NS + "/configmaps";
        String listed = expect(200, "GET", configMaps, null, null);
        // the list's own, the first in its body
        Matcher listedAt = RESOURCE_VERSION.matcher(listed);
        if (!listedAt.find()) {
            fail("the list of " + configMaps + " has no resourceVersion: " + listed);
        }
        String resourceVersion = listedAt.group(1);
        // every write below is an event on each watch: created, then four updates, then deleted
        int events = objects * 6;
        // the server ends them after 120 s: an event lost would fail the training, not hang it
        String watch = configMaps + "?watch=1&timeoutSeconds=120&resourceVersion=" + resourceVersion;
        CompletableFuture<Integer> chunked = watch(watch, "application/json", "{\"type\":\"", events);
        CompletableFuture<Integer> sse = watch(watch, "text/event-stream", "event: ", events);

        for (int i = 0; i < objects; i++) {
            String name = "cm-" + i;
            String item = configMaps + "/" + name;
            expect(201, "POST", configMaps, "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"n\":\"" + i
                    + "\"}},\"data\":{\"key\":\"" + "v".repeat(100) + "\"}}", "application/json");
            String current = expect(200, "GET", item, null, null);
            expect(200, "PUT", item, current.replace("\"key\":\"", "\"key\":\"put-"), "application/json");
            expect(200, "PATCH", item, "{\"data\":{\"merged\":\"yes\"}}", "application/merge-patch+json");
            expect(200, "PATCH", item, "{\"metadata\":{\"labels\":{\"strategic\":\"yes\"}}}",
                    "application/strategic-merge-patch+json");
            expect(200, "PATCH", item + "?fieldManager=training&force=true", "apiVersion: v1\nkind: ConfigMap\n"
                    + "metadata:\n  name: " + name + "\ndata:\n  applied: \"yes\"\n", "application/apply-patch+yaml");
        }
        expect(200, "GET", configMaps + "?labelSelector=n%3D7", null, null);
        expect(200, "GET", configMaps + "?limit=50", null, null);
        expect(200, "GET", configMaps, null, "application/json;as=Table;v=v1;g=meta.k8s.io");
        for (int i = 0; i < objects; i++) {
            expect(200, "DELETE", configMaps + "/cm-" + i, null, null);
        }
        int chunkedEvents = chunked.get(150, TimeUnit.SECONDS);
        int sseEvents = sse.get(150, TimeUnit.SECONDS);
        if (chunkedEvents != events || sseEvents != events) {
            fail("the watches saw " + chunkedEvents + " and " + sseEvents + " events of " + events);
        }

        customResources();
        expect(201, "POST", "/apis/coordination.k8s.io/v1/namespaces/" + NS + "/leases",
                "{\"metadata\":{\"name\":\"leader\"},\"spec\":{\"holderIdentity\":\"training\","
                        + "\"leaseDurationSeconds\":15}}", "application/json");
        expect(200, "PATCH", "/apis/coordination.k8s.io/v1/namespaces/" + NS + "/leases/leader",
                "[{\"op\":\"replace\",\"path\":\"/spec/holderIdentity\",\"value\":\"other\"}]",
                "application/json-patch+json");
        expect(200, "DELETE", "/api/v1/namespaces/" + NS, null, null);
    }

    private void customResources() throws IOException, InterruptedException {
        String crd = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
        expect(201, "POST", crd, """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"trainings.aot.watchgate.io"},
                 "spec":{"group":"aot.watchgate.io","scope":"Namespaced",
                  "names":{"plural":"trainings","singular":"training","kind":"Training"},
                  "versions":[{"name":"v1","served":true,"storage":true,
                   "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
                    "properties":{"size":{"type":"integer"}}}}}}}]}}""", "application/json");
        String trainings = "/apis/aot.watchgate.io/v1/namespaces/" + NS + "/trainings";
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (send("GET", trainings, null, null).statusCode() != 200) {
            if (System.nanoTime() > deadline) {
                fail("the custom resource was not served 10 s after its definition");
            }
            Thread.sleep(20);
        }
        for (int i = 0; i < 20; i++) {
            expect(201, "POST", trainings, "{\"apiVersion\":\"aot.watchgate.io/v1\",\"kind\":\"Training\","
                    + "\"metadata\":{\"name\":\"t-" + i + "\"},\"spec\":{\"size\":" + i + "}}", "application/json");
        }
        expect(200, "GET", trainings, null, null);
        expect(200, "DELETE", crd + "/trainings.aot.watchgate.io", null, null);
    }

    /** Reads a watch until it has seen {@code events} events (each marked by {@code marker}); counts them. */
    private CompletableFuture<Integer> watch(String path, String accept, String marker, int events) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept).build();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()).thenApplyAsync(response -> {
            if (response.statusCode() != 200) {
                fail("watch " + path + " answered " + response.statusCode());
            }
            int seen = 0;
            StringBuilder tail = new StringBuilder();
            byte[] buffer = new byte[16384];
            try (InputStream in = response.body()) {
                int read;
                while (seen < events && (read = in.read(buffer)) > 0) {
                    tail.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
                    int at;
                    while ((at = tail.indexOf(marker)) >= 0) {
                        seen++;
                        tail.delete(0, at + marker.length());
                    }
                    // keep only what a marker split between two reads needs
                    if (tail.length() > marker.length()) {
                        tail.delete(0, tail.length() - marker.length());
                    }
                }
            } catch (IOException e) {
                fail("watch " + path + " broke: " + e);
            }
            return seen;
        });
    }

    private String expect(int status, String method, String path, String body, String type)
            throws IOException, InterruptedException {
        HttpResponse<String> response = send(method, path, body, type);
        if (response.statusCode() != status) {
            fail(method + " " + path + " answered " + response.statusCode() + " where " + status + " was expected: "
                    + response.body());
        }
        return response.body();
    }

    /** Sends a request; {@code type} is the body's Content-Type, or for a GET the Accept header. */
    private HttpResponse<String> send(String method, String path, String body, String type)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
            if (type != null) {
                request.header("Accept", type);
            }
        } else {
            request.method(method, HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", type);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void fail(String why) {
        System.err.println("AOT training failed: " + why);
        System.exit(1);
    }
}
