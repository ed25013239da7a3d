package io.watchgate.bench;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import io.watchgate.http.VertxInternals;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The fan-out ceiling watchgate is measured against: plain Vert.x, no store, no history, no selectors. It answers
 * the requests {@link WatchLoad} makes: a watch gets a chunked JSON-lines stream, Server-Sent Events when it accepts
 * {@code text/event-stream}, or a WebSocket of one text message per event when it asks for one; a ConfigMap write
 * gets the next revision, is serialized once into one frame per wire format, and that one buffer is written to
 * every stream watching its namespace in that format, on each stream's own event loop, in revision order. What
 * watchgate does beyond this (MVCC, history, validation, selectors, per-watcher flow control) is what a ratio to it
 * measures.
 *
 * <pre>
 * ./mvnw -q test-compile exec:java -Dexec.mainClass=io.watchgate.bench.CeilingServer -Dexec.classpathScope=test \
 *   -Dexec.args="--port=8090 --event-loops=2"
 * </pre>
 */
public final class CeilingServer extends AbstractVerticle {

    /** One per event loop: its watch streams by namespace, touched only on that loop. */
    private static final List<CeilingServer> LOOPS = new CopyOnWriteArrayList<>();
    private static final Object FAN_OUT = new Object();
    private static long revision = 1;

    private final int port;
    private final Map<String, List<Stream>> watchers = new HashMap<>();
    private Context loop;

    private CeilingServer(int port) {
        this.port = port;
    }

    public static void main(String[] args) {
        int port = 8090;
        int loops = 2;
        for (String arg : args) {
            if (arg.startsWith("--port=")) {
                port = Integer.parseInt(arg.substring(7));
            } else if (arg.startsWith("--event-loops=")) {
                loops = Integer.parseInt(arg.substring(14));
            } else {
                System.err.println("usage: CeilingServer [--port=8090] [--event-loops=2]");
                System.exit(2);
            }
        }
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
        int listen = port;
        vertx.deployVerticle(() -> new CeilingServer(listen), new DeploymentOptions().setInstances(loops))
                .onSuccess(id -> System.out.println("ceiling server listening on " + listen + " with " + LOOPS.size()
                        + " event loops"))
                .onFailure(e -> {
                    e.printStackTrace();
                    System.exit(1);
                });
    }

    @Override
    public void start(Promise<Void> started) {
        loop = context;
        LOOPS.add(this);
        // as many streams per HTTP/2 connection as watchgate takes (Vert.x's default is 100)
        vertx.createHttpServer(new HttpServerOptions().setInitialSettings(new Http2Settings()
                .setMaxConcurrentStreams(1000))).requestHandler(this::handle).listen(port).<Void>mapEmpty().onComplete(started);
    }

    /** A watch stream: how its frames are written, and which of a write's frames it takes. */
    private interface Stream {
        void write(Frames frames);
    }

    /** One event in each wire format, built once for every stream that takes it. */
    private record Frames(Buffer jsonLine, Buffer serverSentEvent) {
    }

    private void handle(HttpServerRequest request) {
        String[] path = request.path().split("/");
        // /api/v1/namespaces[/{ns}[/configmaps[/{name}]]]
        String namespace = path.length > 4 ? path[4] : null;
        boolean configMaps = path.length > 5 && path[5].equals("configmaps");
        boolean watch = "true".equals(request.getParam("watch"));
        if (request.method() == HttpMethod.GET && configMaps && watch && "websocket".equalsIgnoreCase(
                request.getHeader("Upgrade"))) {
            request.toWebSocket().onSuccess(socket -> watch(socket, namespace));
        } else if (request.method() == HttpMethod.GET && configMaps && watch) {
            watch(request, namespace);
        } else if (request.method() == HttpMethod.GET && configMaps) {
            long current;
            synchronized (FAN_OUT) {
                current = revision;
            }
            request.response().putHeader("Content-Type", "application/json").end("{\"kind\":\"ConfigMapList\","
                    + "\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"" + current + "\"},\"items\":[]}");
        } else if ((request.method() == HttpMethod.POST || request.method() == HttpMethod.PUT) && configMaps) {
            request.body().onSuccess(body -> write(request, namespace, body));
        } else if (request.method() == HttpMethod.POST || request.method() == HttpMethod.DELETE) {
            // namespaces: created and deleted as far as the load tool can tell
            request.body().onSuccess(body -> request.response().setStatusCode(
                    request.method() == HttpMethod.POST ? 201 : 200).putHeader("Content-Type", "application/json")
                    .end(body.length() > 0 ? body : Buffer.buffer("{}")));
        } else {
            request.response().setStatusCode(404).end();
        }
    }

    private void watch(HttpServerRequest request, String namespace) {
        String accept = request.getHeader("Accept");
        boolean events = accept != null && accept.contains("text/event-stream");
        HttpServerResponse response = request.response().setChunked(true).putHeader("Content-Type",
                events ? "text/event-stream" : "application/json");
        response.write(Buffer.buffer()); // sends the head now, as watchgate does
        Stream stream = events ? frames -> response.write(frames.serverSentEvent())
                : frames -> response.write(frames.jsonLine());
        List<Stream> streams = watchers.computeIfAbsent(namespace, ns -> new ArrayList<>());
        streams.add(stream);
        response.closeHandler(v -> streams.remove(stream));
    }

    private void watch(ServerWebSocket socket, String namespace) {
        // a text message over the shared bytes, as watchgate writes them (the public API copies a String each time)
        Stream stream = frames -> socket.writeFrame(VertxInternals.textFrameOver(frames.jsonLine()));
        List<Stream> streams = watchers.computeIfAbsent(namespace, ns -> new ArrayList<>());
        streams.add(stream);
        socket.closeHandler(v -> streams.remove(stream));
    }

    private void write(HttpServerRequest request, String namespace, Buffer body) {
        JsonObject object = body.toJsonObject();
        JsonObject metadata = object.getJsonObject("metadata");
        metadata.put("namespace", namespace);
        String type = request.method() == HttpMethod.POST ? "ADDED" : "MODIFIED";
        Buffer stored;
        synchronized (FAN_OUT) {
            metadata.put("resourceVersion", Long.toString(++revision));
            stored = object.toBuffer();
            Buffer jsonLine = Buffer.buffer(stored.length() + 32).appendString("{\"type\":\"").appendString(type)
                    .appendString("\",\"object\":").appendBuffer(stored).appendString("}\n");
            Buffer serverSentEvent = Buffer.buffer(stored.length() + 48).appendString("id: ")
                    .appendString(Long.toString(revision)).appendString("\nevent: ").appendString(type)
                    .appendString("\ndata: ").appendBuffer(stored).appendString("\n\n");
            Frames frame = new Frames(jsonLine, serverSentEvent);
            // queued to each loop in revision order, so each stream gets its writes in order
            for (CeilingServer loop : LOOPS) {
                loop.loop.runOnContext(v -> loop.deliver(namespace, frame));
            }
        }
        request.response().setStatusCode(type.equals("ADDED") ? 201 : 200)
                .putHeader("Content-Type", "application/json").end(stored);
    }

    private void deliver(String namespace, Frames frames) {
        List<Stream> streams = watchers.get(namespace);
        if (streams != null) {
            for (Stream stream : streams) {
                stream.write(frames);
            }
        }
    }
}
