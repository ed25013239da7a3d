package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of a watch or a stream, as a test drives it: it keeps every frame written, and while
 * {@link #chokeAfterEachWrite} is set its buffers are full after each write until the test {@link #drain}s them.
 */
public final class FakeSink implements WatchSink {

    /** Every frame written, as text. */
    public final List<String> frames = new ArrayList<>();
    public boolean chokeAfterEachWrite;
    /** Ended by the watch, cleanly or not. */
    public boolean ended;
    /** Dropped, as a client that fell too far behind. */
    public boolean aborted;
    private final WireFormat format;
    private boolean full;
    private Runnable drain;

    public FakeSink(WireFormat format) {
        this.format = format;
    }

    @Override
    public WireFormat format() {
        return format;
    }

    @Override
    public void write(Buffer frame) {
        frames.add(frame.toString());
        full = chokeAfterEachWrite;
    }

    @Override
    public boolean writeQueueFull() {
        return full;
    }

    /** The client takes up what was queued. Like Vert.x, the handler stays and is called at every return. */
    public void drain() {
        full = false;
        if (drain != null) {
            drain.run();
        }
    }

    @Override
    public void onDrain(Runnable action) {
        drain = action;
    }

    @Override
    public void onClose(Runnable action) {
    }

    @Override
    public void end() {
        ended = true;
    }

    @Override
    public void abort() {
        ended = true;
        aborted = true;
    }
}
