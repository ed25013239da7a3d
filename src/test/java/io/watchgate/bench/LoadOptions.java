package io.watchgate.bench;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/** The options of {@link WatchLoad}: {@code --name=value} or {@code --name value}; {@code --help} lists them. */
final class LoadOptions {

    enum Format { CHUNKED, SSE, WEBSOCKET }

    enum Parse { SCAN, FULL }

    String url = "http://localhost:8080";
    /** A bearer token sent with every request (the server's RBAC then decides each), or null. */
    String token;
    int watchers = 100;
    /** Watches per stream (/streams), each of another namespace; 0 for one watch per connection. */
    int watchesPerStream;
    /** Watch streams per HTTP/2 connection (cleartext, prior knowledge); 0 for one HTTP/1.1 connection each. */
    int http2;
    int namespaces = 10;
    boolean allNamespaces;
    int writes = 2000;
    int warmup;
    double rate = 200;
    int size = 1024;
    int connections = 4;
    int objects = 20;
    boolean patch;
    Format format = Format.CHUNKED;
    Parse parse = Parse.SCAN;
    long serverPid;
    int eventLoops = 2;
    int establishTimeoutSeconds = 60;
    int drainTimeoutSeconds = 30;
    int graceMillis = 1000;
    int pauseMillis;
    int pauseEvery = 100;
    /** the fraction of watchers that stop reading for good once established (dead clients) */
    double stalled;
    boolean rewatch = true;
    boolean cleanup = true;
    String prefix = "wl";

    String host;
    int port;
    /** Every server given (--url=A,B,C: replicas): watcher and writer connection i go to the i-th mod their number. */
    final java.util.List<URI> servers = new java.util.ArrayList<>();

    String host(int i) {
        return servers.get(i % servers.size()).getHost();
    }

    int port(int i) {
        URI server = servers.get(i % servers.size());
        return server.getPort() < 0 ? 80 : server.getPort();
    }

    static final String USAGE = """
            WatchLoad: opens N watches, makes M writes and checks what each watch delivered.

              --url=URL[,URL...]      server (http://localhost:8080); several: replicas of one store, watch i
                                      and writer connection i on the i-th mod their number (setup on the first)
              --watchers=N            watch streams (100)
              --namespaces=K          namespaces written to; watcher i watches namespace i mod K (10)
              --all-namespaces        every watcher watches /api/v1/configmaps instead (all namespaces)
              --watches-per-stream=S  each watcher is one stream (GET /streams, Server-Sent Events) of S
                                      watches: watcher i watches namespaces i, i+1, ... i+S-1 mod K (0: one
                                      watch per connection)
              --writes=M              writes to make (2000)
              --warmup=W              first make W writes (same rate) with the watches open and wait for
                                      their events, then forget them: warms the JIT of tool and server (0)
              --rate=R                writes per second, 0 = as fast as the writer connections go (200)
              --size=BYTES            bytes of ConfigMap data per object (1024)
              --connections=C         writer connections, keep-alive, one request in flight each (4)
              --objects=P             object names per writer connection: its first P writes per namespace
                                      create (POST, ADDED), later ones update them (PUT, MODIFIED)
                                      round robin; 0 = every write creates a new object (20)
              --patch                 updates are merge patches of the send time and sequence (PATCH) rather
                                      than whole objects (PUT): large objects, small requests
              --http2=S               watch over HTTP/2 (cleartext), S streams per connection, as client-go
                                      and browsers share one (0 = one HTTP/1.1 connection per watch) (0)
              --format=chunked|sse|websocket
                                      watch wire format: chunked JSON lines, Server-Sent Events (chunked), or a
                                      WebSocket of one text message per event
              --parse=scan|full       find type/resourceVersion/send time by scanning bytes, or parse every
                                      event as JSON and check its namespace as well (scan)
              --server-pid=PID        also report the server's CPU seconds and RSS from /proc/PID
              --event-loops=L         the tool's Vert.x event loops (2)
              --establish-timeout=S   seconds to wait for every watch to answer 200 (60)
              --drain-timeout=S       after the last write, give up once no event arrived for S seconds (30)
              --grace-ms=MS           after the expected count arrived, keep listening for extras (1000)
              --pause-ms=MS           every watcher stops reading for MS ms after each --pause-every events
                                      it received (0 = never; tests the server's slow-client handling) (0)
              --pause-every=E         (100)
              --stalled=F             this fraction of the watchers stops reading for good once its stream is
                                      established; they are left out of the delivery check and the latencies,
                                      which then describe the others (0)
              --no-rewatch            do not re-open a stream the server ended (default: re-open from the
                                      last resourceVersion it delivered, as a Kubernetes reflector does)
              --no-cleanup            keep the namespaces (default: delete them at the end)
              --prefix=P              namespace name prefix (wl)
              --token=T               send "Authorization: Bearer T" with every request
            """;

    /** {@code request} with the Authorization header, when a token was given. */
    io.vertx.core.http.RequestOptions authorized(io.vertx.core.http.RequestOptions request) {
        return token == null ? request : request.addHeader("Authorization", "Bearer " + token);
    }

    static LoadOptions parse(String[] args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.isBlank()) {
                continue;
            }
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + arg + "\n" + USAGE);
            }
            String name = arg.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (isFlag(name)) {
                value = "true";
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("--" + name + " needs a value\n" + USAGE);
            }
            given.put(name, value);
        }
        LoadOptions o = new LoadOptions();
        for (Map.Entry<String, String> e : given.entrySet()) {
            String v = e.getValue();
            switch (e.getKey()) {
                case "help" -> throw new IllegalArgumentException(USAGE);
                case "url" -> o.url = v;
                case "token" -> o.token = v;
                case "watchers" -> o.watchers = Integer.parseInt(v);
                case "watches-per-stream" -> o.watchesPerStream = Integer.parseInt(v);
                case "http2" -> o.http2 = Integer.parseInt(v);
                case "namespaces" -> o.namespaces = Integer.parseInt(v);
                case "all-namespaces" -> o.allNamespaces = Boolean.parseBoolean(v);
                case "writes" -> o.writes = Integer.parseInt(v);
                case "warmup" -> o.warmup = Integer.parseInt(v);
                case "rate" -> o.rate = Double.parseDouble(v);
                case "size" -> o.size = Integer.parseInt(v);
                case "connections" -> o.connections = Integer.parseInt(v);
                case "objects" -> o.objects = Integer.parseInt(v);
                case "patch" -> o.patch = Boolean.parseBoolean(v);
                case "format" -> o.format = Format.valueOf(v.toUpperCase());
                case "parse" -> o.parse = Parse.valueOf(v.toUpperCase());
                case "server-pid" -> o.serverPid = Long.parseLong(v);
                case "event-loops" -> o.eventLoops = Integer.parseInt(v);
                case "establish-timeout" -> o.establishTimeoutSeconds = Integer.parseInt(v);
                case "drain-timeout" -> o.drainTimeoutSeconds = Integer.parseInt(v);
                case "grace-ms" -> o.graceMillis = Integer.parseInt(v);
                case "pause-ms" -> o.pauseMillis = Integer.parseInt(v);
                case "pause-every" -> o.pauseEvery = Integer.parseInt(v);
                case "stalled" -> o.stalled = Double.parseDouble(v);
                case "no-rewatch" -> o.rewatch = !Boolean.parseBoolean(v);
                case "no-cleanup" -> o.cleanup = !Boolean.parseBoolean(v);
                case "prefix" -> o.prefix = v;
                default -> throw new IllegalArgumentException("unknown option --" + e.getKey() + "\n" + USAGE);
            }
        }
        if (o.watchers < 0 || o.namespaces < 1 || o.writes < 0 || o.warmup < 0 || o.rate < 0 || o.size < 0 || o.connections < 1
                || o.objects < 0 || o.eventLoops < 1
                || o.pauseMillis < 0 || o.pauseEvery < 1 || o.stalled < 0 || o.stalled >= 1) {
            throw new IllegalArgumentException("option out of range\n" + USAGE);
        }
        if (o.http2 > 0 && o.format == Format.WEBSOCKET) {
            throw new IllegalArgumentException("--http2 carries chunked and SSE responses: Vert.x 4's client opens "
                    + "WebSockets over HTTP/1.1 only\n" + USAGE);
        }
        if (o.http2 < 0) {
            throw new IllegalArgumentException("option out of range\n" + USAGE);
        }
        for (String url : o.url.split(",")) {
            URI uri = URI.create(url.trim());
            if (!"http".equals(uri.getScheme())) {
                throw new IllegalArgumentException("only http:// URLs are supported: " + url);
            }
            o.servers.add(uri);
        }
        o.host = o.host(0);
        o.port = o.port(0);
        return o;
    }

    private static boolean isFlag(String name) {
        return name.equals("all-namespaces") || name.equals("patch") || name.equals("no-rewatch") || name.equals("no-cleanup")
                || name.equals("help");
    }

    String describe() {
        return String.format("url=%s watchers=%d namespaces=%d%s writes=%d warmup=%d rate=%s size=%d connections=%d "
                        + "objects=%d%s format=%s parse=%s event-loops=%d rewatch=%s%s%s",
                url, watchers, namespaces, allNamespaces ? " (all-namespaces watches)" : "", writes, warmup,
                rate == 0 ? "max" : String.valueOf(rate), size, connections, objects, patch ? " (updates patch)" : "",
                format.name().toLowerCase(), parse.name().toLowerCase(), eventLoops, rewatch,
                pauseMillis > 0 ? " pause-ms=" + pauseMillis + " pause-every=" + pauseEvery : "",
                watchesPerStream > 0 ? " watches-per-stream=" + watchesPerStream : "")
                + (http2 > 0 ? " http2=" + http2 : "");
    }
}
