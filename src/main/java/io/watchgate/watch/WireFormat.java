package io.watchgate.watch;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedOutputStream;
import io.vertx.core.buffer.Buffer;
import io.watchgate.types.ResourceType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** How watch events are framed on the wire: events, bookmarks and heartbeats, as bytes for the connection. */
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
        public Buffer heartbeat() {
            return Buffer.buffer(HEARTBEAT);
        }

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
    },

    /**
     * Kubernetes' protobuf watch stream ({@code application/vnd.kubernetes.protobuf;stream=watch}): each event a
     * 4-byte big-endian length, then a meta.k8s.io WatchEvent whose object's raw bytes are the object in its
     * protobuf envelope (what {@code object} must be here).
     */
    PROTOBUF_STREAM {
        @Override
        public Buffer frame(String type, byte[] object, long id) {
            byte[] typeBytes = type.getBytes(StandardCharsets.UTF_8);
            // WatchEvent{1: type, 2: RawExtension{1: raw}}
            int raw = CodedOutputStream.computeByteArraySize(1, object);
            int size = CodedOutputStream.computeByteArraySize(1, typeBytes)
                    + CodedOutputStream.computeTagSize(2) + CodedOutputStream.computeUInt32SizeNoTag(raw) + raw;
            byte[] frame = new byte[4 + size];
            ByteBuffer.wrap(frame).putInt(size);
            CodedOutputStream out = CodedOutputStream.newInstance(frame, 4, size);
            try {
                out.writeByteArray(1, typeBytes);
                out.writeTag(2, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
                out.writeUInt32NoTag(raw);
                out.writeByteArray(1, object);
                out.checkNoSpaceLeft();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // the array is sized exactly: cannot happen
            }
            return Buffer.buffer(frame);
        }
    };

    /** For frames that must not move a client's resume point (initial events, errors). */
    public static final long NO_ID = -1;

    /** For a frame after which a client must not resume where it was (an expired watch): clears its last id. */
    public static final long RESET_ID = -2;

    /** A comment: what keeps an idle event stream's proxies from timing it out, and tells nothing. */
    private static final byte[] HEARTBEAT = ": heartbeat\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
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

    /**
     * A BOOKMARK: an object of the watched type with only a resourceVersion, through which the watch has seen
     * everything, and for the last of the initial events the annotation {@code k8s.io/initial-events-end}.
     */
    public Buffer bookmark(ResourceType type, long revision, boolean initialEventsEnd, ObjectRendering rendering) {
        ObjectNode object = NODES.objectNode();
        object.put("kind", type.kind());
        object.put("apiVersion", type.apiVersion());
        ObjectNode metadata = object.putObject("metadata");
        metadata.put("resourceVersion", Long.toString(revision));
        if (initialEventsEnd) {
            metadata.putObject("annotations").put("k8s.io/initial-events-end", "true");
        }
        return frame("BOOKMARK", rendering.renderControl(object), revision);
    }

    /** What an idle stream sends to stay open: only event streams have one (a chunked stream has no comments). */
    public Buffer heartbeat() {
        throw new UnsupportedOperationException(this + " has no heartbeat");
    }
}
