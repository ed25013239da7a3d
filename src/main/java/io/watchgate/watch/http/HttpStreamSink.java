package io.watchgate.watch.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.watchgate.http.HeldFlushes;
import io.watchgate.http.VertxInternals;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WireFormat;

/** A watch written into a streaming HTTP response (chunked over HTTP/1.1, DATA frames over HTTP/2). */
public final class HttpStreamSink implements WatchSink {

    private final HttpServerResponse response;
    /** The HTTP/1.x connection the response is the only stream of; null over HTTP/2. */
    private final HttpConnection http1;
    private final WireFormat format;

    /** @param response {@code request}'s response, whose head is written already */
    public HttpStreamSink(HttpServerRequest request, HttpServerResponse response, WireFormat format) {
        this.response = response;
        boolean http2 = request.version() == HttpVersion.HTTP_2;
        this.http1 = http2 ? null : request.connection();
        this.format = format;
        if (http2) {
            // many watches share an HTTP/2 connection: an event for several of them goes out in one socket write
            HeldFlushes.holdOn(VertxInternals.handlerContextOf(request.connection()));
        }
    }

    @Override
    public WireFormat format() {
        return format;
    }

    @Override
    public void write(Buffer frame) {
        if (!response.closed() && !response.ended()) {
            // not write(frame, null), though it skips a promise per frame: over HTTP/2 a null handler means the
            // pipeline's void promise, whose failure (a frame held by flow control when its stream is reset) closes
            // the connection and every watch on it (Http2Test); over HTTP/1.1 it measured no cheaper
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
        if (response.closed()) {
            return;
        }
        if (http1 == null) {
            response.reset(); // cancels the stream, and what is queued for it
        } else {
            // Vert.x's reset() and close() would send what is queued first, which a client that stopped reading
            // never lets happen: its buffers would stay taken for as long as it keeps the connection open
            VertxInternals.closeAtOnceUnlessEnded(http1, response);
        }
    }
}
