package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/** How watch events are framed on the wire. */
public enum WireFormat {

    /** One JSON object per line: {@code {"type":"ADDED","object":{...}}}. Chunked HTTP and WebSocket messages. */
    JSON_LINES {
        @Override
        public Buffer frame(String type, byte[] object, long id) {
            Buffer frame = Buffer.buffer(object.length + 32);
            frame.appendBytes(JSON_PREFIX).appendString(type).appendBytes(JSON_INFIX).appendBytes(object)
                    .appendBytes(JSON_SUFFIX);
            return frame;
        }
    },

    /** Server-Sent Events: {@code id:} (the resourceVersion to resume after), {@code event:} (the type) and {@code data:}. */
    SERVER_SENT_EVENTS {
        @Override
        public Buffer frame(String type, byte[] object, long id) {
            Buffer frame = Buffer.buffer(object.length + 48);
            if (id == RESET_ID) {
                frame.appendString("id\n");
            } else if (id != NO_ID) {
                frame.appendString("id: ").appendString(Long.toString(id)).appendByte((byte) '\n');
            }
            // compact JSON has no raw line breaks, so one data line carries it
            frame.appendString("event: ").appendString(type).appendString("\ndata: ").appendBytes(object)
                    .appendString("\n\n");
            return frame;
        }
    };

    /** For frames that must not move a client's resume point (initial events, errors). */
    public static final long NO_ID = -1;

    /** For a frame after which a client must not resume where it was (an expired watch): clears its last id. */
    public static final long RESET_ID = -2;

    private static final byte[] JSON_PREFIX = "{\"type\":\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] JSON_INFIX = "\",\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] JSON_SUFFIX = "}\n".getBytes(StandardCharsets.UTF_8);

    /**
     * One event as this format frames it.
     *
     * @param object the event's object, serialized
     * @param id     the resourceVersion a client resumes after once it has this event, or {@link #NO_ID}
     */
    public abstract Buffer frame(String type, byte[] object, long id);
}
