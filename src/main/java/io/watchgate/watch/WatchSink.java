package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;

/** Where one watch's frames go: a chunked or event-stream HTTP response, or a WebSocket. Event-loop only. */
public interface WatchSink {

    WireFormat format();

    /** How the watch travels, as metrics tell watches apart: the wire format, or {@code websocket}. */
    default String form() {
        return switch (format()) {
            case JSON_LINES -> "chunked";
            case SERVER_SENT_EVENTS -> "sse";
            case PROTOBUF_STREAM -> "protobuf";
        };
    }

    /** Writes one whole frame; nothing happens once the sink is closed. */
    void write(Buffer frame);

    /** Whether the client has stopped taking bytes as fast as they come. */
    boolean writeQueueFull();

    /** Runs {@code action} once the client has taken up the backlog (replaces an earlier action). */
    void onDrain(Runnable action);

    /** Runs {@code action} when the client goes away. */
    void onClose(Runnable action);

    /** Ends the stream cleanly: the client sees a finished watch and re-watches. */
    void end();

    /** Drops the connection without draining what is queued for it: for a client that does not read. */
    void abort();
}
