package io.watchgate.watch.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.watchgate.http.VertxInternals;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WireFormat;

/** A watch over a WebSocket: one text message per watch event, as kube-apiserver sends them. */
public final class WebSocketSink implements WatchSink {

    private final ServerWebSocket socket;
    private Runnable onClose = () -> {
    };

    /** {@code afterClose}: the end of the request the socket came from, run after the watch's own close action. */
    public WebSocketSink(ServerWebSocket socket, Runnable afterClose) {
        this.socket = socket;
        socket.closeHandler(v -> {
            onClose.run();
            afterClose.run();
        });
        if (socket.isClosed()) {
            afterClose.run();
        }
    }

    @Override
    public String form() {
        return "websocket";
    }

    @Override
    public WireFormat format() {
        return WireFormat.JSON_LINES;
    }

    @Override
    public void write(Buffer frame) {
        if (!socket.isClosed()) {
            // a text frame over the shared bytes: the public API would decode and encode a String per watcher
            socket.writeFrame(VertxInternals.textFrameOver(frame));
        }
    }

    @Override
    public boolean writeQueueFull() {
        return socket.writeQueueFull();
    }

    @Override
    public void onDrain(Runnable action) {
        socket.drainHandler(v -> action.run());
    }

    @Override
    public void onClose(Runnable action) {
        onClose = action;
        if (socket.isClosed()) {
            action.run(); // the client left before the watch started
        }
    }

    @Override
    public void end() {
        if (!socket.isClosed()) {
            socket.close();
        }
    }

    @Override
    public void abort() {
        if (!socket.isClosed()) {
            // not close(1008): the close frame would wait behind what the client is not reading, and so would
            // the memory queued for it
            VertxInternals.closeAtOnce(socket);
        }
    }
}
