package io.watchgate.bench;

import io.netty.buffer.ByteBuf;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.streams.ReadStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * One watch stream and what it received: for each data event (ADDED, MODIFIED, DELETED) its resourceVersion, its
 * type and its delivery latency (receive time minus the send time the writer embedded in the object's data).
 * Everything but {@link #established} and {@link #stop()} runs on the stream's own Vert.x context.
 */
final class WatchConnection {

    static final long ADDED = 0;
    static final long MODIFIED = 1;
    static final long DELETED = 2;

    private static final byte[] JSON_TYPE = bytes("{\"type\":\"");
    private static final byte[] RESOURCE_VERSION = bytes("\"resourceVersion\":\"");
    private static final byte[] SENT_NANOS = bytes("\"" + Writer.SENT_KEY + "\":\"");
    private static final byte[] SSE_ID = bytes("id: ");
    private static final byte[] SSE_EVENT = bytes("event: ");
    private static final byte[] SSE_DATA = bytes("data: ");
    private static final byte[] STREAM_WATCH = bytes("{\"watch\":\"/api/v1/namespaces/");

    final int id;
    /** the namespace watched, or null for all namespaces */
    final String namespace;
    final CompletableFuture<Integer> established = new CompletableFuture<>();
    /** For a stream of watches, the namespace of each (and what each received below); null for one watch. */
    final List<String> streamNamespaces;
    final LongList[] streamRvs;
    final LongList[] streamTypes;
    private int sseWatch = -1;

    private final HttpClient client;
    private final Context context;
    private final LoadOptions options;
    private final long epoch;
    private final LongAdder delivered;

    // what was received, in arrival order
    final LongList rvs = new LongList(256);
    final LongList types = new LongList(256);
    final LatencyRecorder latencies = new LatencyRecorder();
    int bookmarks;
    int errors;
    int malformed;
    int withoutTimestamp;
    int wrongNamespace;
    int sseIdMismatch;
    int endedByServer;
    int rewatches;
    int rewatchFailures;
    String firstError;
    String lastEndReason;
    long lastReceiveNanos;
    String failure;

    private long initialRv;
    private long lastRv;
    private int generation;
    private boolean stopping;
    private boolean ended;
    private HttpClientRequest request;
    /** What the events arrive on: the response, or the WebSocket. */
    private ReadStream<Buffer> source;
    private WebSocket socket;
    private int sincePause;
    private Buffer partial;
    // Server-Sent Events: the frame being read
    private long sseType = -1;
    private long sseId = -1;
    private long sseRv = -1;
    private long sseSent = -1;
    private boolean sseData;

    WatchConnection(int id, String namespace, HttpClient client, Context context, LoadOptions options, long epoch,
            LongAdder delivered) {
        this(id, namespace, null, client, context, options, epoch, delivered);
    }

    WatchConnection(int id, String namespace, List<String> streamNamespaces, HttpClient client, Context context,
            LoadOptions options, long epoch, LongAdder delivered) {
        this.streamNamespaces = streamNamespaces;
        int watches = streamNamespaces == null ? 0 : streamNamespaces.size();
        this.streamRvs = new LongList[watches];
        this.streamTypes = new LongList[watches];
        for (int j = 0; j < watches; j++) {
            streamRvs[j] = new LongList(256);
            streamTypes[j] = new LongList(256);
        }
        this.id = id;
        this.namespace = namespace;
        this.client = client;
        this.context = context;
        this.options = options;
        this.epoch = epoch;
        this.delivered = delivered;
    }

    String path() {
        return namespace == null ? "/api/v1/configmaps" : "/api/v1/namespaces/" + namespace + "/configmaps";
    }

    /** Opens the watch from {@code rv}; called from any thread. */
    void start(long rv) {
        initialRv = rv;
        lastRv = rv;
        context.runOnContext(v -> open(rv));
    }

    private void open(long rv) {
        int gen = ++generation;
        ended = false;
        partial = null;
        resetSse();
        if (options.format == LoadOptions.Format.WEBSOCKET && streamNamespaces == null) {
            openWebSocket(gen, rv);
            return;
        }
        RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET).setHost(options.host(id))
                .setPort(options.port(id)).setURI(streamNamespaces != null ? streamPath(initialRv)
                        : path() + "?watch=true&resourceVersion=" + rv);
        options.authorized(request);
        if (streamNamespaces != null && rv != initialRv) {
            request.addHeader("Last-Event-ID", Long.toString(rv)); // the whole stream resumes after it
        }
        if (options.format == LoadOptions.Format.SSE || streamNamespaces != null) {
            request.addHeader("Accept", "text/event-stream");
        } else {
            request.addHeader("Accept", "application/json");
        }
        client.request(request).onSuccess(req -> {
            this.request = req;
            req.exceptionHandler(e -> streamEnded(gen, "request: " + e));
            req.send().onSuccess(resp -> onResponse(gen, resp)).onFailure(e -> openFailed(gen, e.toString()));
        }).onFailure(e -> openFailed(gen, e.toString()));
    }

    /** A watch over a WebSocket, as kubectl and client-go's watch over one: one text message per event. */
    private void openWebSocket(int gen, long rv) {
        WebSocketConnectOptions request = new WebSocketConnectOptions();
        request.setHost(options.host(id)).setPort(options.port(id))
                .setURI(path() + "?watch=true&resourceVersion=" + rv);
        options.authorized(request);
        client.webSocket(request).onSuccess(ws -> {
            if (gen != generation || stopping) {
                ws.close();
                return;
            }
            socket = ws;
            source = ws;
            ws.handler(message -> onMessage(gen, message));
            ws.closeHandler(v -> streamEnded(gen, "the server closed the WebSocket"));
            ws.exceptionHandler(e -> streamEnded(gen, e.toString()));
            if (stalls()) {
                ws.pause();
            }
            established.complete(200);
        }).onFailure(e -> openFailed(gen, e.toString()));
    }

    /** One WebSocket message: one event, with or without the line break of a JSON line. */
    private void onMessage(int gen, Buffer message) {
        if (gen != generation || stopping) {
            return;
        }
        int end = message.length();
        if (end > 0 && message.getByte(end - 1) == '\n') {
            end--;
        }
        line(message, 0, end, System.nanoTime());
        pauseNow(gen);
    }

    private void onResponse(int gen, HttpClientResponse response) {
        if (gen != generation || stopping) {
            return;
        }
        if (response.statusCode() != 200) {
            int status = response.statusCode();
            response.body().onComplete(body -> openFailed(gen, "HTTP " + status + ": "
                    + (body.succeeded() ? truncate(body.result().toString()) : String.valueOf(body.cause()))));
            return;
        }
        this.source = response;
        response.handler(chunk -> onChunk(gen, chunk));
        response.endHandler(v -> streamEnded(gen, "the server ended the response"));
        response.exceptionHandler(e -> streamEnded(gen, e.toString()));
        if (stalls()) {
            response.pause(); // a dead client: it never reads again, and neither does its re-watch
        }
        established.complete(200);
    }

    /** Whether this is one of the {@code --stalled} watchers: every k-th, spread over the namespaces. */
    boolean stalls() {
        if (options.stalled <= 0) {
            return false;
        }
        long every = Math.round(1 / options.stalled);
        return (id / Math.max(1, options.namespaces)) % every == every - 1;
    }

    private void openFailed(int gen, String why) {
        if (gen != generation || stopping) {
            return;
        }
        if (!established.isDone()) {
            failure = why;
            established.complete(-1);
        } else {
            rewatchFailures++;
            lastEndReason = "re-watch failed: " + why;
        }
    }

    private void streamEnded(int gen, String why) {
        if (gen != generation || stopping || ended) {
            return;
        }
        ended = true;
        if (!established.isDone()) {
            openFailed(gen, why);
            return;
        }
        endedByServer++;
        lastEndReason = why;
        if (options.rewatch && rewatches < 100) {
            rewatches++;
            open(lastRv);
        }
    }

    private void onChunk(int gen, Buffer chunk) {
        if (gen != generation || stopping) {
            return;
        }
        long now = System.nanoTime();
        ByteBuf bytes = chunk.getByteBuf();
        int end = chunk.length();
        int start = 0;
        while (start < end) {
            int newline = bytes.indexOf(start, end, (byte) '\n');
            if (newline < 0) {
                if (partial == null) {
                    partial = Buffer.buffer(Math.max(256, 2 * (end - start)));
                }
                partial.appendBuffer(chunk, start, end - start);
                return;
            }
            if (partial != null) {
                partial.appendBuffer(chunk, start, newline - start);
                Buffer line = partial;
                partial = null;
                line(line, 0, line.length(), now);
            } else {
                line(chunk, start, newline, now);
            }
            start = newline + 1;
        }
        pauseNow(gen);
    }

    private void pauseNow(int gen) {
        if (options.pauseMillis > 0 && sincePause >= options.pauseEvery) {
            // a client that stops reading for a while: the server must stall it, then catch it up or end it
            sincePause = 0;
            ReadStream<Buffer> paused = source;
            paused.pause();
            context.owner().setTimer(options.pauseMillis, t -> {
                if (gen == generation && !stopping) {
                    paused.resume();
                }
            });
        }
    }

    private String streamPath(long rv) {
        StringBuilder path = new StringBuilder("/streams");
        for (String ns : streamNamespaces) {
            path.append(path.length() == 8 ? '?' : '&').append("watch=").append(java.net.URLEncoder.encode(
                    "/api/v1/namespaces/" + ns + "/configmaps?resourceVersion=" + rv,
                    java.nio.charset.StandardCharsets.UTF_8));
        }
        return path.toString();
    }

    private void line(Buffer b, int s, int e, long now) {
        if (options.format == LoadOptions.Format.SSE || streamNamespaces != null) {
            sseLine(b, s, e, now);
            return;
        }
        if (s == e) {
            return;
        }
        if (options.parse == LoadOptions.Parse.FULL) {
            JsonObject event;
            try {
                event = new JsonObject(b.getBuffer(s, e));
            } catch (RuntimeException ex) {
                malformed++;
                return;
            }
            String type = event.getString("type");
            JsonObject object = event.getJsonObject("object");
            if (type == null || object == null) {
                malformed++;
                return;
            }
            long code = typeCode(type.isEmpty() ? (byte) 0 : (byte) type.charAt(0));
            fullObject(code, object, b, s, e, now);
            return;
        }
        if (!startsWith(b, s, e, JSON_TYPE) || e - s == JSON_TYPE.length) {
            malformed++;
            return;
        }
        long code = typeCode(b.getByte(s + JSON_TYPE.length));
        event(code, b, s, e, now);
    }

    private void sseLine(Buffer b, int s, int e, long now) {
        if (s == e) { // a blank line ends a frame
            if (sseType >= 0) {
                if (sseType == 'B' || sseType == 'E') {
                    special(sseType);
                } else if (sseType < 0 || !sseData) {
                    malformed++;
                } else if (sseRv >= 0) {
                    if (sseId >= 0 && sseId != sseRv) {
                        sseIdMismatch++;
                    }
                    record(sseType, sseRv, sseSent, now);
                }
            }
            resetSse();
            return;
        }
        if (startsWith(b, s, e, SSE_ID)) {
            sseId = digits(b, s + SSE_ID.length, e);
        } else if (startsWith(b, s, e, SSE_EVENT) && e - s > SSE_EVENT.length) {
            sseType = typeCode(b.getByte(s + SSE_EVENT.length));
        } else if (startsWith(b, s, e, SSE_DATA)) {
            sseData = true;
            int from = s + SSE_DATA.length;
            if (sseType == 'E' && firstError == null) {
                firstError = truncate(b.getString(from, e));
            }
            if (sseType == 'B' || sseType == 'E') {
                return;
            }
            if (streamNamespaces != null) {
                sseWatch = streamWatch(b, from, e);
                if (sseWatch < 0) {
                    malformed++;
                    return;
                }
            }
            if (options.parse == LoadOptions.Parse.FULL) {
                try {
                    JsonObject object = new JsonObject(b.getBuffer(from, e));
                    JsonObject metadata = object.getJsonObject("metadata");
                    sseRv = Long.parseLong(metadata.getString("resourceVersion"));
                    checkNamespace(metadata.getString("namespace"));
                    JsonObject data = object.getJsonObject("data");
                    String sent = data == null ? null : data.getString(Writer.SENT_KEY);
                    sseSent = sent == null ? -1 : Long.parseLong(sent);
                } catch (RuntimeException ex) {
                    malformed++;
                }
            } else {
                sseRv = after(b, from, e, RESOURCE_VERSION);
                sseSent = after(b, from, e, SENT_NANOS);
                if (sseRv < 0) {
                    malformed++;
                }
            }
        }
        // "retry:" and ": heartbeat" comment lines need nothing
    }

    /** Which watch of this stream an event is for, from the namespace in its "watch" URL; -1 if none. */
    private int streamWatch(Buffer b, int from, int e) {
        if (!startsWith(b, from, e, STREAM_WATCH)) {
            return -1;
        }
        int start = from + STREAM_WATCH.length;
        int end = start;
        while (end < e && b.getByte(end) != '/') {
            end++;
        }
        return streamNamespaces.indexOf(b.getString(start, end));
    }

    private void resetSse() {
        sseWatch = -1;
        sseType = -1;
        sseId = -1;
        sseRv = -1;
        sseSent = -1;
        sseData = false;
    }

    /** A JSON-lines event, found by scanning bytes. */
    private void event(long code, Buffer b, int s, int e, long now) {
        if (code == 'B' || code == 'E') {
            if (code == 'E' && firstError == null) {
                firstError = truncate(b.getString(s, e));
            }
            special(code);
            return;
        }
        long rv = after(b, s, e, RESOURCE_VERSION);
        if (code < 0 || rv < 0) {
            malformed++;
            return;
        }
        record(code, rv, after(b, s, e, SENT_NANOS), now);
    }

    private void fullObject(long code, JsonObject object, Buffer b, int s, int e, long now) {
        if (code == 'B' || code == 'E') {
            if (code == 'E' && firstError == null) {
                firstError = truncate(b.getString(s, e));
            }
            special(code);
            return;
        }
        try {
            JsonObject metadata = object.getJsonObject("metadata");
            long rv = Long.parseLong(metadata.getString("resourceVersion"));
            checkNamespace(metadata.getString("namespace"));
            JsonObject data = object.getJsonObject("data");
            String sent = data == null ? null : data.getString(Writer.SENT_KEY);
            if (code < 0) {
                malformed++;
                return;
            }
            record(code, rv, sent == null ? -1 : Long.parseLong(sent), now);
        } catch (RuntimeException ex) {
            malformed++;
        }
    }

    private void checkNamespace(String got) {
        if (namespace != null && !namespace.equals(got)) {
            wrongNamespace++;
        }
    }

    private void special(long code) {
        if (code == 'B') {
            bookmarks++;
        } else {
            errors++;
        }
    }

    private void record(long code, long rv, long sent, long now) {
        if (streamNamespaces != null) {
            streamRvs[sseWatch].add(rv);
            streamTypes[sseWatch].add(code);
        } else {
            rvs.add(rv);
            types.add(code);
        }
        if (sent >= 0) {
            latencies.record(now - (epoch + sent));
        } else {
            withoutTimestamp++;
        }
        if (rv > lastRv) {
            lastRv = rv;
        }
        lastReceiveNanos = now;
        sincePause++;
        delivered.increment();
    }

    /** ADDED/MODIFIED/DELETED as 0/1/2, BOOKMARK and ERROR as 'B' and 'E', anything else -1. */
    private static long typeCode(byte first) {
        return switch (first) {
            case 'A' -> ADDED;
            case 'M' -> MODIFIED;
            case 'D' -> DELETED;
            case 'B' -> 'B';
            case 'E' -> 'E';
            default -> -1;
        };
    }

    /**
     * Forgets the events received so far (after a warm-up); the problem counters (errors, malformed, ends) stay.
     * Completes on the stream's context once done.
     */
    CompletableFuture<Void> forgetEvents() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        context.runOnContext(v -> {
            rvs.clear();
            types.clear();
            for (int j = 0; j < streamRvs.length; j++) {
                streamRvs[j].clear();
                streamTypes[j].clear();
            }
            latencies.clear();
            withoutTimestamp = 0;
            lastReceiveNanos = 0;
            done.complete(null);
        });
        return done;
    }

    /** Stops the stream (closing its connection); completes on the stream's context once it has stopped. */
    CompletableFuture<Void> stop() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        context.runOnContext(v -> {
            stopping = true;
            if (socket != null) {
                socket.close();
            }
            if (request != null) {
                try {
                    request.reset();
                } catch (RuntimeException ignored) {
                    // already closed
                }
            }
            done.complete(null);
        });
        return done;
    }

    // --- byte scanning: the fields looked for sit in the first few hundred bytes of an event ---

    private static boolean startsWith(Buffer b, int s, int e, byte[] prefix) {
        if (e - s < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (b.getByte(s + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** The resourceVersion in an object's JSON (the first one in it: its metadata's), or -1. */
    static long resourceVersion(Buffer json) {
        return after(json, 0, json.length(), RESOURCE_VERSION);
    }

    /** The decimal number right after the first {@code pattern} in [s, e), or -1. */
    private static long after(Buffer b, int s, int e, byte[] pattern) {
        int last = e - pattern.length;
        byte first = pattern[0];
        outer:
        for (int i = s; i <= last; i++) {
            if (b.getByte(i) != first) {
                continue;
            }
            for (int k = 1; k < pattern.length; k++) {
                if (b.getByte(i + k) != pattern[k]) {
                    continue outer;
                }
            }
            return digits(b, i + pattern.length, e);
        }
        return -1;
    }

    private static long digits(Buffer b, int from, int e) {
        long value = 0;
        int i = from;
        for (; i < e; i++) {
            byte c = b.getByte(i);
            if (c < '0' || c > '9') {
                break;
            }
            value = value * 10 + (c - '0');
        }
        return i == from ? -1 : value;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static String truncate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }
}
