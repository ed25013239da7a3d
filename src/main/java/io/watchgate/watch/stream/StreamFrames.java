package io.watchgate.watch.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusBody;
import io.watchgate.watch.EncodedEvent;
import io.watchgate.watch.EventFilter;
import io.watchgate.watch.HistoryReplay;
import io.watchgate.watch.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How a stream's events look on the wire. Each is {@code {"watch":"<its tag>","type":"ADDED","object":{...}}}, the
 * tag saying which watch it is for: the URL given for it over Server-Sent Events, the id given for it over a
 * WebSocket. Over Server-Sent Events it is the data of an event with the usual {@code id:} (the resourceVersion to
 * resume the whole stream after) and {@code event:} (the type); over a WebSocket it is one text message. The
 * object's bytes are the event's own, shared with every other watcher of it; only the few bytes around them are the
 * stream's.
 *
 * <p>A revision's frames carry its id on the last of them only: a client cut off between two frames of one revision
 * resumes before it, and gets both again rather than lose one. Bookmarks and errors of the whole stream name no
 * watch.
 */
enum StreamFrames {

    EVENT_STREAM {
        @Override
        Buffer frame(long id, String type, byte[] data) {
            return WireFormat.SERVER_SENT_EVENTS.frame(type, data, id);
        }

        @Override
        void open(Buffer frame, long id, String type) {
            if (id == WireFormat.RESET_ID) {
                frame.appendString("id\n");
            } else if (id != WireFormat.NO_ID) {
                frame.appendString("id: ").appendString(Long.toString(id)).appendByte((byte) '\n');
            }
            frame.appendString("event: ").appendString(type).appendString("\ndata: ");
        }

        @Override
        void close(Buffer frame) {
            frame.appendBytes(SSE_END);
        }
    },

    WEBSOCKET {
        @Override
        Buffer frame(long id, String type, byte[] data) {
            return Buffer.buffer(data);
        }

        @Override
        void open(Buffer frame, long id, String type) {
            // the objects carry their resourceVersions: a WebSocket client resumes from them
        }

        @Override
        void close(Buffer frame) {
            frame.appendByte((byte) '}');
        }
    };

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final byte[] WATCH = "{\"watch\":\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TYPE = "\",\"type\":\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OBJECT = "\",\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] COALESCED_OBJECT = "\",\"coalesced\":true,\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SSE_END = "}\n\n".getBytes(StandardCharsets.UTF_8);

    /** The frames of one committed event for the watches it concerns (one buffer, or one message each). */
    record Delivery(List<Buffer> frames, int events) {
    }

    /** A frame of the whole stream, {@code data} its JSON. */
    abstract Buffer frame(long id, String type, byte[] data);

    /** What comes before an event's JSON. */
    abstract void open(Buffer frame, long id, String type);

    /** What comes after the object, closing the JSON and the frame. */
    abstract void close(Buffer frame);

    static StreamFrames of(WireFormat format) {
        return format == WireFormat.SERVER_SENT_EVENTS ? EVENT_STREAM : WEBSOCKET;
    }

    /**
     * The frames of {@code encoded} for those of {@code watches} it concerns (by Kubernetes' selector rules, and only
     * after each one's {@link StreamedWatch#since()}), the last with the event's revision as its id unless
     * {@code ids} is false; null when it concerns none.
     */
    Delivery of(EncodedEvent encoded, Iterable<StreamedWatch> watches, boolean ids) {
        List<StreamedWatch> concerned = null;
        List<EncodedEvent.Variant> variants = null;
        for (StreamedWatch watch : watches) {
            if (watch.hasEnded() || encoded.revision() <= watch.since()) {
                continue;
            }
            EncodedEvent.Variant variant = EventFilter.variantFor(encoded.event(), watch.spec().range(),
                    watch.spec().selection());
            if (variant != null) {
                if (concerned == null) {
                    concerned = new ArrayList<>(2);
                    variants = new ArrayList<>(2);
                }
                concerned.add(watch);
                variants.add(variant);
            }
        }
        if (concerned == null) {
            return null;
        }
        int size = encoded.event().object().json().length + 160;
        List<Buffer> frames = new ArrayList<>(this == EVENT_STREAM ? 1 : concerned.size());
        Buffer frame = null;
        for (int i = 0; i < concerned.size(); i++) {
            if (frame == null || this == WEBSOCKET) {
                frame = Buffer.buffer(this == EVENT_STREAM ? size * concerned.size() : size);
                frames.add(frame);
            }
            StreamedWatch watch = concerned.get(i);
            EncodedEvent.Variant variant = variants.get(i);
            long id = ids && i == concerned.size() - 1 ? encoded.revision() : WireFormat.NO_ID;
            append(frame, id, encoded.type(variant), watch, encoded.object(variant, watch.spec().rendering()));
        }
        return new Delivery(frames, concerned.size());
    }

    /**
     * How history replays to a stream ({@link HistoryReplay}): each event's frames for the watches it concerns, with
     * ids once no snapshot is due.
     */
    HistoryReplay.Framing replaying(Iterable<StreamedWatch> watches, StreamSnapshots snapshots) {
        return (event, send) -> {
            Delivery delivery = of(event, watches, !snapshots.isDue());
            if (delivery == null) {
                return 0;
            }
            delivery.frames().forEach(send);
            return delivery.events();
        };
    }

    /** An event of {@code watch} (an initial one, with {@link WireFormat#NO_ID}). */
    Buffer event(long id, String type, StreamedWatch watch, Buffer object) {
        return append(Buffer.buffer(object.length() + 160), id, type, watch, object);
    }

    /** An event standing for all the changes of one object a client fell behind on (see {@link Coalescer}). */
    Buffer coalesced(long id, String type, StreamedWatch watch, Buffer object) {
        return append(Buffer.buffer(object.length() + 180), id, type, watch, object, COALESCED_OBJECT);
    }

    /** The bookmark after a watch's initial events: an object of its type, with the annotation that says so. */
    Buffer initialEventsEnd(StreamedWatch watch, long revision, long id) {
        ObjectNode object = NODES.objectNode();
        object.put("kind", watch.spec().type().kind());
        object.put("apiVersion", watch.spec().type().apiVersion());
        ObjectNode metadata = object.putObject("metadata");
        metadata.put("resourceVersion", Long.toString(revision));
        metadata.putObject("annotations").put("k8s.io/initial-events-end", "true");
        return event(id, "BOOKMARK", watch, Buffer.buffer(watch.spec().rendering().renderControl(object)));
    }

    /** An ERROR event of one watch, which ends it alone (a 403 when its user may no longer watch it). */
    Buffer error(StreamedWatch watch, ApiException e) {
        return event(WireFormat.NO_ID, "ERROR", watch, Buffer.buffer(StatusBody.of(e).toString()));
    }

    /**
     * The answer to a WebSocket client's stop of {@code watch}: a Success Status, after which nothing of the watch
     * comes; what came of it before was sent before.
     */
    Buffer stopped(StreamedWatch watch) {
        ObjectNode status = NODES.objectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Success");
        status.put("message", "the watch \"" + watch.tag() + "\" has stopped: nothing more of it follows");
        status.put("code", 200);
        return event(WireFormat.NO_ID, "STOPPED", watch, Buffer.buffer(bytes(status)));
    }

    /** A bookmark of the whole stream: everything through {@code revision} has been sent. */
    Buffer bookmark(long revision) {
        ObjectNode data = NODES.objectNode();
        data.put("type", "BOOKMARK");
        data.putObject("object").putObject("metadata").put("resourceVersion", Long.toString(revision));
        return frame(revision, "BOOKMARK", bytes(data));
    }

    /** An ERROR of the whole stream that does not end it: a WebSocket message that asked for nothing it could do. */
    Buffer streamNotice(ApiException e) {
        ObjectNode data = NODES.objectNode();
        data.put("type", "ERROR");
        data.set("object", StatusBody.of(e));
        return frame(WireFormat.NO_ID, "ERROR", bytes(data));
    }

    /** An ERROR of the whole stream (a 410 when its resourceVersion left the history): the client relists. */
    Buffer streamError(ApiException e) {
        ObjectNode data = NODES.objectNode();
        data.put("type", "ERROR");
        data.set("object", StatusBody.of(e));
        // an EventSource forgets its Last-Event-ID, so that reconnecting starts over
        return frame(WireFormat.RESET_ID, "ERROR", bytes(data));
    }

    private Buffer append(Buffer frame, long id, String type, StreamedWatch watch, Buffer object) {
        return append(frame, id, type, watch, object, OBJECT);
    }

    private Buffer append(Buffer frame, long id, String type, StreamedWatch watch, Buffer object, byte[] beforeObject) {
        open(frame, id, type);
        frame.appendBytes(WATCH).appendBytes(watch.quotedTag()).appendBytes(TYPE).appendString(type)
                .appendBytes(beforeObject).appendBuffer(object);
        close(frame);
        return frame;
    }

    private static byte[] bytes(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }
}
