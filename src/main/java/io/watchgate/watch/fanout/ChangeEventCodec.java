package io.watchgate.watch.fanout;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;
import io.watchgate.store.ChangeEvent;

/**
 * Passes committed events to local consumers as they are: they are immutable and never leave the process.
 */
final class ChangeEventCodec implements MessageCodec<ChangeEvent, ChangeEvent> {

    static final String NAME = "watchgate-change-event";

    @Override
    public void encodeToWire(Buffer buffer, ChangeEvent event) {
        throw new UnsupportedOperationException("change events are delivered in this process only");
    }

    @Override
    public ChangeEvent decodeFromWire(int pos, Buffer buffer) {
        throw new UnsupportedOperationException("change events are delivered in this process only");
    }

    @Override
    public ChangeEvent transform(ChangeEvent event) {
        return event;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte systemCodecID() {
        return -1;
    }
}
