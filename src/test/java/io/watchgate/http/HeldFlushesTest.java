package io.watchgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Writes made during a stretch of held flushes reach the socket together, in one flush per connection, when the
 * stretch ends; outside one, each flush goes out at once. The channel stands for a connection: a handler named as
 * Vert.x's own writes, and one next to the socket counts the flushes that reach it.
 */
class HeldFlushesTest {

    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @BeforeEach
    void connections() {
        channels.add(connection());
        channels.add(connection());
    }

    @AfterEach
    void close() {
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    @Test
    void aFlushOutsideAStretchGoesOutAtOnce() {
        EmbeddedChannel channel = channels.get(0);
        write(channel, "one");
        assertEquals(List.of("one"), sent(channel));
        assertEquals(1, flushes(channel));
    }

    @Test
    void writesOfAStretchGoOutInOneFlushPerConnectionWhenItEnds() {
        HeldFlushes.around(() -> {
            for (EmbeddedChannel channel : channels) {
                write(channel, "one");
                write(channel, "two");
                write(channel, "three");
                assertEquals(List.of(), sent(channel), "held while the stretch runs");
            }
        });
        for (EmbeddedChannel channel : channels) {
            assertEquals(List.of("one", "two", "three"), sent(channel));
            assertEquals(1, flushes(channel));
        }
    }

    @Test
    void aConnectionWhoseClientReadsAlongNeverLooksFullForWhatItHolds() {
        EmbeddedChannel channel = channels.get(0);
        // Netty counts some 96 bytes per queued message besides its own: about sixteen of these fill 2 KiB
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1024, 2048));
        HeldFlushes.around(() -> {
            for (int i = 0; i < 40; i++) {
                write(channel, "an event of some thirty bytes");
                assertTrue(channel.isWritable(), "writable after write " + i); // a watcher would stall otherwise
            }
        });
        assertEquals(40, sent(channel).size());
        assertTrue(flushes(channel) > 1 && flushes(channel) < 10, "flushed early, now and then: " + flushes(channel));
    }

    @Test
    void aWriteLargerThanTheMarkGoesOutAtOnceEvenInAStretch() {
        EmbeddedChannel channel = channels.get(0);
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1024, 2048));
        String large = "x".repeat(4096);
        HeldFlushes.around(() -> {
            write(channel, large);
            assertTrue(channel.isWritable(), "its watcher would stall for what the socket takes at once");
            assertEquals(List.of(large), sent(channel));
        });
    }

    @Test
    void aNestedStretchHoldsUntilTheOutermostEnds() {
        EmbeddedChannel channel = channels.get(0);
        HeldFlushes.around(() -> {
            HeldFlushes.around(() -> write(channel, "inner"));
            assertEquals(List.of(), sent(channel));
            write(channel, "outer");
        });
        assertEquals(List.of("inner", "outer"), sent(channel));
        assertEquals(1, flushes(channel));
    }

    @Test
    void whatWasWrittenBeforeACloseGoesOutFirst() {
        EmbeddedChannel channel = channels.get(0);
        HeldFlushes.around(() -> {
            write(channel, "last words");
            channel.pipeline().context("handler").close();
        });
        assertEquals(List.of("last words"), sent(channel));
        assertFalse(channel.isOpen());
    }

    @Test
    void aStretchThatFailsStillFlushesWhatItWrote() {
        EmbeddedChannel channel = channels.get(0);
        assertThrows(IllegalStateException.class, () -> HeldFlushes.around(() -> {
            write(channel, "before the failure");
            throw new IllegalStateException("a watcher failed"); // the caller's to handle
        }));
        assertEquals(List.of("before the failure"), sent(channel));
        write(channel, "after");
        assertEquals(List.of("after"), sent(channel), "not held once the stretch is over");
    }

    @Test
    void aConnectionGetsOneHolderHoweverOftenItIsAskedFor() {
        EmbeddedChannel channel = channels.get(0);
        HeldFlushes.holdOn(channel.pipeline().context("handler"));
        long holders = channel.pipeline().names().stream().filter(n -> n.equals("watchgate-held-flushes")).count();
        assertEquals(1, holders);
        assertTrue(channel.pipeline().names().indexOf("watchgate-held-flushes")
                < channel.pipeline().names().indexOf("handler"), "on the socket's side of Vert.x's handler");
    }

    private static EmbeddedChannel connection() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast("socket-flushes", new FlushCounter());
        channel.pipeline().addLast("handler", new ChannelInboundHandlerAdapter());
        HeldFlushes.holdOn(channel.pipeline().context("handler"));
        return channel;
    }

    /** A write and flush as Vert.x's handler makes them outside a read. */
    private static void write(EmbeddedChannel channel, String text) {
        channel.pipeline().context("handler").writeAndFlush(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }

    /** What reached the socket since last asked. */
    private static List<String> sent(EmbeddedChannel channel) {
        List<String> sent = new ArrayList<>();
        for (ByteBuf bytes; (bytes = channel.readOutbound()) != null; ) {
            sent.add(bytes.toString(StandardCharsets.UTF_8));
            bytes.release();
        }
        return sent;
    }

    private static int flushes(EmbeddedChannel channel) {
        return ((FlushCounter) channel.pipeline().get("socket-flushes")).flushes;
    }

    private static final class FlushCounter extends ChannelOutboundHandlerAdapter {
        int flushes;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes++;
            ctx.flush();
        }
    }
}
