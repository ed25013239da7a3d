package io.watchgate.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayList;
import java.util.List;

/**
 * A stretch of an event loop's work that writes to many watches of one connection flushes that connection once, at
 * its end. Vert.x flushes every write made outside a read at once: one event fanned out to the hundred watches an
 * HTTP/2 connection carries made a hundred socket writes (and TLS records), and the watches of one catching up on a
 * hundred events made a hundred more. Writes made {@link #around} such work go into each connection's buffer as they
 * are made; each connection {@link #holdOn held} is flushed once when the work ends. Outside such work, a flush goes
 * out at once, as before: nothing is deferred to a later task.
 *
 * <p>A held connection is flushed at once when a write takes its buffer past the high-water mark: Netty counts
 * unflushed bytes there too, and a connection whose client reads along must not look full to its watchers (each
 * would stall, and pin memory, for what the socket would have taken at once).
 *
 * <p>Only connections that carry many watches (HTTP/2) are held: a connection of one watch gets one write per event
 * anyway, and holding its flushes to the end of the fan-out measured no cheaper, if anything dearer. Netty's
 * {@code FlushConsolidationHandler} defers flushes to a later task of the loop instead, which measured no better for
 * a watch per connection (one more task per write) and leaves the stretch to chance.
 */
public final class HeldFlushes {

    private static final String NAME = "watchgate-held-flushes";
    private static final FastThreadLocal<HeldFlushes> OF_LOOP = new FastThreadLocal<>() {
        @Override
        protected HeldFlushes initialValue() {
            return new HeldFlushes();
        }
    };

    /** The connections whose flushes wait for the end of the current stretch: at most one entry each. */
    private final List<Holder> held = new ArrayList<>();
    private int depth;

    private HeldFlushes() {
    }

    /**
     * Runs {@code work}, holding the flushes of the connections it writes to (those {@link #holdOn held}) until it
     * ends, then flushing each once. Event-loop threads only; nested calls hold until the outermost one ends.
     */
    public static void around(Runnable work) {
        HeldFlushes flushes = OF_LOOP.get();
        flushes.depth++;
        try {
            work.run();
        } finally {
            if (--flushes.depth == 0) {
                flushes.release();
            }
        }
    }

    /**
     * Lets the connection of Vert.x's handler {@code vertxHandler} (see {@code VertxInternals.handlerContextOf}) hold
     * its flushes during {@link #around}; null is left alone. Goes in once per connection, next to Vert.x's handler on
     * the socket's side, so that TLS, which encrypts at a flush, wraps what it held in as few records as it can.
     */
    public static void holdOn(ChannelHandlerContext vertxHandler) {
        if (vertxHandler != null && !vertxHandler.isRemoved() && vertxHandler.pipeline().get(NAME) == null) {
            vertxHandler.pipeline().addBefore(vertxHandler.name(), NAME, new Holder());
        }
    }

    private void release() {
        if (held.isEmpty()) {
            return;
        }
        // a flush may run handlers (a drain) that write and flush again: not held any more, those go out at once
        Holder[] flushing = held.toArray(new Holder[0]);
        held.clear();
        Throwable failed = null;
        for (Holder holder : flushing) {
            try {
                holder.flushHeld();
            } catch (Throwable e) { // the others are flushed all the same, or they would hold for good
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed instanceof Error error) {
            throw error;
        }
        if (failed instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failed != null) { // a checked exception Netty threw without declaring it
            throw new IllegalStateException("flushing held writes failed", failed);
        }
    }

    /** Holds one connection's flushes while a stretch of its loop's work runs. */
    private static final class Holder extends ChannelOutboundHandlerAdapter {

        private ChannelHandlerContext holding;

        @Override
        public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
            ctx.write(message, promise);
            if (!ctx.channel().isWritable() && OF_LOOP.get().depth > 0) {
                // this write (a large event, or the last of many) took the buffer past the mark: the socket takes
                // what it can now, as it would have without the stretch; later flushes are held again
                ctx.flush();
            }
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            // Netty calls this on the connection's own loop
            if (holding != null) {
                return; // flushed when the stretch ends
            }
            HeldFlushes flushes = OF_LOOP.get();
            if (flushes.depth > 0) {
                holding = ctx;
                flushes.held.add(this);
            } else {
                ctx.flush();
            }
        }

        void flushHeld() {
            ChannelHandlerContext ctx = holding;
            if (ctx != null) {
                holding = null;
                ctx.flush();
            }
        }

        /** What was written before a close goes out first, as it would have without this handler. */
        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
            flushHeld();
            super.close(ctx, promise);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            flushHeld();
        }
    }
}
