package io.watchgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.WebSocketFrame;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What watchgate relies on in each Vert.x internal it uses, against a real server and socket: when one of these
 * fails after a Vert.x upgrade, {@link VertxInternals} needs another way.
 */
class VertxInternalsTest {

    private Vertx vertx;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private int serve(Consumer<HttpServerRequest> requests) throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(requests::accept);
        return server.listen(0, "localhost").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
    }

    @Test
    void aConnectionsChannelLeadsToTheListeningChannelWhichSeesEveryConnectionAccepted() throws Exception {
        List<Channel> accepted = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Channel> listening = new CompletableFuture<>();
        int port = serve(request -> {
            Channel channel = VertxInternals.channelOf(request.connection());
            if (channel != null && channel.parent() != null && listening.complete(channel.parent())) {
                // as ConnectionDeadlines installs itself: first in the listening channel's pipeline
                channel.parent().pipeline().addFirst(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
                        if (message instanceof Channel connection) {
                            accepted.add(connection);
                        }
                        super.channelRead(ctx, message);
                    }
                });
            }
            request.response().end("ok");
        });
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false));
        for (int i = 0; i < 3; i++) {
            assertEquals("ok", client.request(HttpMethod.GET, port, "localhost", "/")
                    .compose(request -> request.send().compose(response -> response.body()))
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).toString());
        }
        assertTrue(listening.isDone(), "no listening channel behind the connection");
        assertEquals(2, accepted.size(), "the connections after the first: " + accepted);
    }

    @Test
    void workForTheNextRoundRunsOnItsContextAfterTheTasksQueuedBeforeIt() throws Exception {
        Context context = vertx.getOrCreateContext();
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Context> nextRoundsContext = new CompletableFuture<>();
        context.runOnContext(v -> {
            VertxInternals.nextRound(context, () -> {
                ran.add("next round");
                nextRoundsContext.complete(Vertx.currentContext());
            });
            context.runOnContext(w -> ran.add("queued after it, in this round"));
            context.runOnContext(w -> ran.add("and another"));
        });
        assertSame(context, nextRoundsContext.get(10, TimeUnit.SECONDS), "run on the context it was given");
        assertEquals(List.of("queued after it, in this round", "and another", "next round"), ran);
    }

    @Test
    void aTextFrameOverBytesIsAFinalTextFrameThatSharesThemRatherThanCopies() {
        Buffer bytes = Buffer.buffer("{\"type\":\"ADDED\"}", "UTF-8");
        WebSocketFrame frame = VertxInternals.textFrameOver(bytes);
        assertTrue(frame.isText(), "a text frame");
        assertTrue(frame.isFinal(), "a whole message");
        bytes.setByte(9, (byte) 'D'); // ADDED -> DDDED: the frame sees it only if it shares the bytes
        assertEquals("{\"type\":\"DDDED\"}", frame.textData());
    }

    /** {@link HeldFlushes} goes in next to the handler this finds, and must see every write Vert.x makes. */
    @Test
    void theHandlerContextIsVertxsOwnAndWritesHeldNextToItReachTheClient() throws Exception {
        List<String> handlers = Collections.synchronizedList(new ArrayList<>());
        int port = serve(request -> {
            ChannelHandlerContext vertx = VertxInternals.handlerContextOf(request.connection());
            // noted here, asserted by the test's thread: an assertion failing in the handler would show as a timeout
            handlers.add(vertx.handler().getClass().getSimpleName()
                    + (vertx.channel() == VertxInternals.channelOf(request.connection()) ? "" : " of another channel"));
            HeldFlushes.holdOn(vertx);
            HttpServerResponse response = request.response().setChunked(true);
            response.write("head;");
            vertx.executor().execute(() -> HeldFlushes.around(() -> { // outside the request's read, as a watch
                response.write("one;");
                response.write("two");
                response.end();
            }));
        });
        for (HttpVersion version : List.of(HttpVersion.HTTP_1_1, HttpVersion.HTTP_2)) {
            HttpClient client = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(version)
                    .setHttp2ClearTextUpgrade(false));
            assertEquals("head;one;two", client.request(HttpMethod.GET, port, "localhost", "/")
                    .compose(request -> request.send().compose(response -> response.body()))
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).toString(), version.name());
        }
        assertEquals(List.of("VertxHandler", "VertxHttp2ConnectionHandler"), handlers); // Vert.x's own, each
    }

    @Test
    void oneEventsBytesGoOutAsWholeTextMessagesToEveryWebSocketAndAgain() throws Exception {
        Buffer event = Buffer.buffer("{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\"}}\n", "UTF-8");
        // upgraded by the request handler, as watchgate's watch route does (a JVM running Quarkus may have set
        // vertx.disableWebsockets, which only the server's own WebSocket handler heeds)
        int port = serve(request -> request.toWebSocket().onSuccess(socket -> socket.textMessageHandler(ready -> {
            socket.writeFrame(VertxInternals.textFrameOver(event));
            socket.writeFrame(VertxInternals.textFrameOver(event)); // the same bytes, still whole after a write
        })));
        List<CompletableFuture<List<String>>> clients = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CompletableFuture<List<String>> received = new CompletableFuture<>();
            List<String> messages = Collections.synchronizedList(new ArrayList<>());
            // the server sends once the client says it listens
            vertx.createHttpClient().webSocket(port, "localhost", "/").onSuccess(socket -> {
                socket.binaryMessageHandler(binary -> received.completeExceptionally(
                        new AssertionError("a binary message, which watch clients do not read")));
                socket.textMessageHandler(text -> {
                    messages.add(text);
                    if (messages.size() == 2) {
                        received.complete(List.copyOf(messages));
                    }
                });
                socket.writeTextMessage("ready");
            }).onFailure(received::completeExceptionally);
            clients.add(received);
        }
        for (CompletableFuture<List<String>> client : clients) {
            assertEquals(List.of(event.toString(), event.toString()), client.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void closingAtOnceDropsWhatIsQueuedInsteadOfSendingItFirst() throws Exception {
        CompletableFuture<Long> writtenWhenCut = new CompletableFuture<>();
        int port = serve(request -> {
            HttpServerResponse response = request.response().setChunked(true);
            // written outside the request's handler, where Vert.x flushes each write at once: what the socket does
            // not take then stays queued in the connection, and the queue fills only once the socket is full
            vertx.setTimer(1, later -> {
                Buffer chunk = Buffer.buffer(new byte[64 * 1024]);
                long written = 0;
                while (!response.writeQueueFull()) { // the client reads nothing
                    response.write(chunk);
                    written += chunk.length();
                }
                long queued = written;
                vertx.setTimer(100, deadline -> { // as the send deadline fires: later, on the connection's loop
                    if (VertxInternals.closeAtOnceUnlessEnded(request.connection(), response)) {
                        writtenWhenCut.complete(queued);
                    } else {
                        writtenWhenCut.completeExceptionally(new AssertionError("an open response was not closed"));
                    }
                });
            });
        });
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(4096);
            client.connect(new InetSocketAddress("localhost", port));
            client.setSoTimeout(10_000); // a connection left open fails the test rather than hang it
            client.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            client.getOutputStream().flush();
            long written = writtenWhenCut.get(10, TimeUnit.SECONDS);
            long received = readUntilClosed(client.getInputStream()); // as if the client read on after all
            assertTrue(received < written, "the queued bytes were dropped: " + received + " of " + written
                    + " bytes arrived");
        }
    }

    @Test
    void closingAWebSocketAtOnceDropsWhatIsQueuedInsteadOfSendingItFirst() throws Exception {
        CompletableFuture<Long> writtenWhenCut = new CompletableFuture<>();
        // upgraded as the watch route upgrades
        int port = serve(request -> request.toWebSocket().onSuccess(socket -> vertx.setTimer(1, later -> {
            Buffer message = Buffer.buffer(new byte[64 * 1024]);
            long written = 0;
            while (!socket.writeQueueFull()) { // the client reads nothing
                socket.writeBinaryMessage(message);
                written += message.length();
            }
            long queued = written;
            vertx.setTimer(100, cut -> {
                VertxInternals.closeAtOnce(socket);
                writtenWhenCut.complete(queued);
            });
        })));
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(4096);
            client.connect(new InetSocketAddress("localhost", port));
            client.setSoTimeout(10_000); // a connection left open fails the test rather than hang it
            client.getOutputStream().write(("GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            client.getOutputStream().flush();
            long written = writtenWhenCut.get(10, TimeUnit.SECONDS);
            long received = readUntilClosed(client.getInputStream()); // as if the client read on after all
            assertTrue(received < written, "the queued bytes were dropped: " + received + " of " + written
                    + " bytes arrived");
        }
    }

    @Test
    void aResponseThatEndedIsLeftAloneAndItsConnectionServesOn() throws Exception {
        List<HttpConnection> connections = Collections.synchronizedList(new ArrayList<>());
        List<Boolean> closed = Collections.synchronizedList(new ArrayList<>());
        int port = serve(request -> {
            connections.add(request.connection());
            request.response().end("whole");
            closed.add(VertxInternals.closeAtOnceUnlessEnded(request.connection(), request.response()));
        });
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(1));
        for (int i = 0; i < 2; i++) {
            String body = client.request(HttpMethod.GET, port, "localhost", "/")
                    .compose(request -> request.send().compose(response -> response.body()))
                    .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).toString();
            assertEquals("whole", body);
        }
        assertEquals(List.of(false, false), closed);
        assertSame(connections.get(0), connections.get(1), "the kept-alive connection served the second request");
    }

    private static long readUntilClosed(InputStream in) {
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        try {
            for (int n; (n = in.read(buffer)) != -1;) {
                total += n;
            }
        } catch (SocketTimeoutException open) {
            throw new AssertionError("the connection was not closed", open);
        } catch (IOException reset) {
            // a reset connection ends as well as a closed one
        }
        return total;
    }
}
