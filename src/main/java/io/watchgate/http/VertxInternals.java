package io.watchgate.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.core.http.WebSocketFrameType;
import io.vertx.core.http.impl.WebSocketInternal;
import io.vertx.core.http.impl.ws.WebSocketFrameImpl;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.concurrent.TimeUnit;

/**
 * Every use of a Vert.x internal ({@code .impl.} package) in watchgate, each where no public API does the job. A
 * Vert.x upgrade may change any of them without notice: {@code VertxInternalsTest} pins the behaviour each one
 * relies on, against a real server and socket, and fails when it changes.
 */
public final class VertxInternals {

    private VertxInternals() {
    }

    /**
     * A final text frame over {@code bytes}, sharing them rather than copying: one watch event's bytes go to every
     * watcher, and each write leaves them as they are, so they can go out again. The public API makes a text frame
     * from a String only ({@code WebSocketFrame.textFrame}, {@code writeTextMessage}), which would decode and encode
     * the event once per watcher; {@code WebSocketFrame.binaryFrame} shares bytes but is a binary message, which
     * Kubernetes clients do not read as a watch event.
     *
     * @param bytes UTF-8 text
     */
    public static WebSocketFrame textFrameOver(Buffer bytes) {
        return new WebSocketFrameImpl(WebSocketFrameType.TEXT, bytes.getByteBuf(), true);
    }

    /**
     * Closes an HTTP/1.x connection at once, dropping whatever is queued for it, unless {@code response} has ended
     * (or its connection closed) already. Vert.x's own {@code close()} and {@code reset()} send what is queued
     * first, which a client that stopped reading never lets happen, and the body's last chunk would follow as if it
     * were whole. The check and the close hold the connection's monitor, the lock Vert.x ends a response under, so
     * that a response ending meanwhile (and what follows it on a kept-alive connection) is left alone.
     *
     * @return whether this closed it; false when the response had ended or the connection had closed
     */
    public static boolean closeAtOnceUnlessEnded(HttpConnection connection, HttpServerResponse response) {
        if (!(connection instanceof ConnectionBase base)) {
            // not Vert.x's own connection (no server Vert.x makes has another): its public close is what there is
            if (response.ended() || response.closed()) {
                return false;
            }
            connection.close();
            return true;
        }
        synchronized (base) {
            if (response.ended() || response.closed()) {
                return false;
            }
            // from the context of Vert.x's own handler, toward the socket: not through that handler, whose close
            // (as the channel's own close(), which passes through it) flushes what is queued first
            base.channelHandlerContext().close();
            return true;
        }
    }

    /**
     * Closes a WebSocket's connection at once, dropping whatever is queued for it. Its own {@code close} queues the
     * close frame behind what is queued, which a client that stopped reading never lets out, so its buffers would
     * stay taken for as long as it keeps the connection open.
     */
    public static void closeAtOnce(ServerWebSocket socket) {
        if (socket instanceof WebSocketInternal internal) {
            // toward the socket from Vert.x's own handler, as in closeAtOnceUnlessEnded
            internal.channelHandlerContext().close();
        } else {
            socket.close((short) 1008, "watch ended: the client fell too far behind");
        }
    }

    /**
     * The Netty channel under a server connection, or null for a connection that is not Vert.x's own. Vert.x has no
     * public hook for a connection before its first request; {@link ConnectionDeadlines} reaches the listening
     * channel through it, and from there every connection from its first byte on.
     */
    public static Channel channelOf(HttpConnection connection) {
        return connection instanceof ConnectionBase base ? base.channel() : null;
    }

    /**
     * The context of Vert.x's own handler in a connection's pipeline (what it writes and flushes through), or null
     * for a connection that is not Vert.x's own. {@link HeldFlushes} goes in beside it.
     */
    public static ChannelHandlerContext handlerContextOf(HttpConnection connection) {
        return connection instanceof ConnectionBase base ? base.channelHandlerContext() : null;
    }

    /**
     * Runs {@code task} on {@code context} (an event-loop context) in its loop's next round: after the I/O ready by
     * then and after the tasks queued before that round. {@code runOnContext} would run it in the current round, and
     * work that keeps queueing itself that way holds the loop's I/O back, since Netty checks the time only every 64
     * tasks; a Vert.x timer would wait a millisecond at least.
     */
    public static void nextRound(Context context, Runnable task) {
        ContextInternal internal = (ContextInternal) context;
        internal.nettyEventLoop().schedule(() -> internal.dispatch(task), 0, TimeUnit.NANOSECONDS);
    }
}
