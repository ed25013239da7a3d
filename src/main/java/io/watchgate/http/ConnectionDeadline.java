package io.watchgate.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One connection's deadline for what its client must send next: its request head, from the connection's start (or
 * the previous response's end), then its body, from the head. The connection is closed when the deadline passes
 * first. While a response is being sent there is no deadline at all (a watch may last an hour in silence); HTTP/2
 * and WebSocket connections are timed until their first request only.
 *
 * <p>Cheap by design: the first in the connection's pipeline, it only sees the connection start and end; the
 * routes tell it of heads and responses; and it keeps at most one timer, which moves the deadline it finds rather
 * than being cancelled and scheduled again per request. Everything runs on the connection's event loop.
 */
final class ConnectionDeadline extends ChannelInboundHandlerAdapter {

    private final ConnectionConfig config;
    private final Runnable onSlow;
    private ChannelHandlerContext context;
    /** System.nanoTime() by which the client must have sent what it owes, or 0 when it owes nothing. */
    private long deadline;
    /** The request whose body is owed, or null. */
    private HttpServerRequest reading;
    private ScheduledFuture<?> check;
    private boolean done;

    ConnectionDeadline(ConnectionConfig config, Runnable onSlow) {
        this.config = config;
        this.onSlow = onSlow;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        context = ctx;
        owe(config.requestHeadTimeout());
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        done = true;
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        super.channelInactive(ctx);
    }

    /** A request's head arrived: from now on only its body is owed, if it has one. */
    void headArrived(HttpServerRequest request, boolean lastTimed) {
        onLoop(() -> {
            done |= lastTimed;
            if (check != null && done) {
                check.cancel(false);
                check = null;
            }
            deadline = 0;
            reading = null;
            if (!done && hasBody(request) && !request.isEnded()) {
                reading = request;
                owe(config.requestBodyTimeout());
            }
        });
    }

    /** A response ended, the connection stays open: the next request's head is owed, unless it is a WebSocket now. */
    void responseEnded() {
        onLoop(() -> {
            if (context.pipeline().get(WebSocketFrameDecoder.class) != null) {
                done = true; // upgraded: a watch's frames from here on, which have limits of their own
                return;
            }
            reading = null;
            deadline = 0;
            owe(config.keepAliveTimeout());
        });
    }

    /** By its headers: the request's end is no sign, as a request nobody reads (a watch's) never ends. */
    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null
                || (length != null && !length.trim().equals("0"));
    }

    private void owe(Duration within) {
        if (done || context == null || within.isZero()) {
            return;
        }
        deadline = Math.max(1, System.nanoTime() + within.toNanos());
        if (check == null) {
            check = context.executor().schedule(this::checkDeadline, within.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void checkDeadline() {
        check = null;
        if (done || deadline == 0) {
            return;
        }
        if (reading != null && reading.isEnded()) {
            reading = null; // the body came in time
            deadline = 0;
            return;
        }
        long left = deadline - System.nanoTime();
        if (left > 0) {
            check = context.executor().schedule(this::checkDeadline, left, TimeUnit.NANOSECONDS);
            return;
        }
        done = true;
        onSlow.run();
        context.channel().close();
    }

    private void onLoop(Runnable action) {
        if (context == null) {
            return;
        }
        if (context.executor().inEventLoop()) {
            action.run();
        } else {
            context.executor().execute(action);
        }
    }
}
