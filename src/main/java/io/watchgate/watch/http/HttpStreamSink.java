package io.watchgate.watch.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WireFormat;

/** A watch written into a streaming HTTP response (chunked over HTTP/1.1, DATA frames over HTTP/2). */
public final class HttpStreamSink implements WatchSink {

    private final HttpServerResponse response;
    private final WireFormat format;

    /** @param response a response whose head is written already */
    public HttpStreamSink(HttpServerResponse response, WireFormat format) {
        this.response = response;
        this.format = format;
    }

    @Override
    public WireFormat format() {
        return format;
    }

    @Override
    public void write(Buffer frame) {
        if (!response.closed() && !response.ended()) {
            response.write(frame);
        }
    }

    @Override
    public boolean writeQueueFull() {
        return response.writeQueueFull();
    }

    @Override
    public void onDrain(Runnable action) {
        response.drainHandler(v -> action.run());
    }

    @Override
    public void onClose(Runnable action) {
        response.closeHandler(v -> action.run());
        if (response.closed()) {
            action.run(); // the client left before the watch started
        }
    }

    @Override
    public void end() {
        if (!response.closed() && !response.ended()) {
            response.end();
        }
    }

    @Override
    public void abort() {
        if (!response.closed()) {
            response.reset(); // HTTP/2: cancels the stream; HTTP/1.x: closes the connection
        }
    }
}
