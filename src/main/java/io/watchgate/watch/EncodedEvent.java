package io.watchgate.watch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * One committed event and its frames, each built the first time a watcher needs it and then shared by every
 * watcher that wants the same bytes, on any event loop. A race to build a frame builds equal bytes twice at most.
 */
public final class EncodedEvent {

    /** Which object a watcher is sent, given how its selector saw the change. */
    public enum Variant {
        /** the event as committed */
        AS_COMMITTED,
        /** the new object as ADDED: it started to match the selector */
        ADDED,
        /** the previous object as DELETED, carrying the event's resourceVersion: it stopped matching */
        DELETED_PREVIOUS
    }

    private static final int VARIANTS = Variant.values().length;
    /** After each format's frames, a rendering's slots hold its objects alone, for streams that frame their own. */
    private static final int OBJECTS = WireFormat.values().length * VARIANTS;
    private static final long UNCACHED = -1;

    private final ChangeEvent event;
    private final ObjectMapper mapper;
    /** The cache that counts this entry's bytes while it holds it. */
    private final EncodedEvents cache;
    /** The bytes counted to the cache so far, or {@link #UNCACHED} once it has let go of this entry. */
    private final AtomicLong charged;
    private final AtomicReferenceArray<Buffer> frames =
            new AtomicReferenceArray<>(OBJECTS + VARIANTS);
    private volatile byte[] previousRestamped;
    /** Frames for the other renderings, by rendering key, slotted as {@link #frames}. */
    private volatile Map<String, AtomicReferenceArray<Buffer>> rendered;

    /** An entry of {@code cache}, which counts the frames built for it. */
    EncodedEvent(ChangeEvent event, ObjectMapper mapper, EncodedEvents cache) {
        this(event, mapper, cache, 0);
    }

    private EncodedEvent(ChangeEvent event, ObjectMapper mapper, EncodedEvents cache, long charged) {
        this.event = event;
        this.mapper = mapper;
        this.cache = cache;
        this.charged = new AtomicLong(charged);
    }

    /** Frames for {@code event} outside any cache: built for whoever asks, and gone with them. */
    static EncodedEvent uncached(ChangeEvent event, ObjectMapper mapper) {
        return new EncodedEvent(event, mapper, null, UNCACHED);
    }

    public ChangeEvent event() {
        return event;
    }

    public long revision() {
        return event.revision();
    }

    /** The frame for watchers that see objects through {@code rendering}. */
    public Buffer frame(WireFormat format, Variant variant, ObjectRendering rendering) {
        return cached(rendering, format.ordinal() * VARIANTS + variant.ordinal(),
                () -> build(format, variant, rendering));
    }

    /**
     * The object a watch that sees objects through {@code rendering} is sent as {@code variant}, for a stream that
     * frames it in its own way. The committed bytes themselves, as stored: only other renderings are built, once.
     */
    public Buffer object(Variant variant, ObjectRendering rendering) {
        if (rendering == ObjectRendering.AS_STORED) {
            byte[] bytes = variant == Variant.DELETED_PREVIOUS ? previousRestamped() : event.object().json();
            return Buffer.buffer(Unpooled.wrappedBuffer(bytes));
        }
        return cached(rendering, OBJECTS + variant.ordinal(), () -> Buffer.buffer(objectBytes(variant, rendering)));
    }

    /** The type of event {@code variant} is sent as. */
    public String type(Variant variant) {
        return switch (variant) {
            case AS_COMMITTED -> event.type().name();
            case ADDED -> EventType.ADDED.name();
            case DELETED_PREVIOUS -> EventType.DELETED.name();
        };
    }

    private Buffer cached(ObjectRendering rendering, int slot, Supplier<Buffer> build) {
        AtomicReferenceArray<Buffer> slots = rendering == ObjectRendering.AS_STORED ? frames
                : renderedFrames().computeIfAbsent(rendering.key(),
                        key -> new AtomicReferenceArray<>(OBJECTS + VARIANTS));
        Buffer frame = slots.get(slot);
        if (frame == null) {
            frame = build.get();
            if (slots.compareAndSet(slot, null, frame)) {
                if (cache != null) {
                    cache.charge(this, frame.length());
                }
            } else {
                frame = slots.get(slot); // built meanwhile by another loop: the same bytes, counted once
            }
        }
        return frame;
    }

    /** Adds {@code size} to the bytes counted for this entry; false once its cache let go of it. */
    boolean addCharge(long size) {
        long before;
        do {
            before = charged.get();
            if (before == UNCACHED) {
                return false;
            }
        } while (!charged.compareAndSet(before, before + size));
        return true;
    }

    /** Its cache lets go of this entry: returns the bytes counted for it, which count no more. */
    long uncache() {
        long before = charged.getAndSet(UNCACHED);
        return before == UNCACHED ? 0 : before;
    }

    private Buffer build(WireFormat format, Variant variant, ObjectRendering rendering) {
        return format.frame(type(variant), objectBytes(variant, rendering), event.revision());
    }

    private byte[] objectBytes(Variant variant, ObjectRendering rendering) {
        if (variant != Variant.DELETED_PREVIOUS) {
            return rendering.bytesOf(event.object());
        }
        return rendering == ObjectRendering.AS_STORED ? previousRestamped() : rendering.render(previousRestampedTree());
    }

    private Map<String, AtomicReferenceArray<Buffer>> renderedFrames() {
        Map<String, AtomicReferenceArray<Buffer>> map = rendered;
        if (map == null) {
            synchronized (this) {
                if (rendered == null) {
                    rendered = new ConcurrentHashMap<>(4);
                }
                map = rendered;
            }
        }
        return map;
    }

    /** Kubernetes sends an object that left a watch's selection as it was before, but at the new resourceVersion. */
    private ObjectNode previousRestampedTree() {
        ObjectNode copy = event.previous().tree().deepCopy();
        copy.withObject("/metadata").put("resourceVersion", Long.toString(event.revision()));
        return copy;
    }

    private byte[] previousRestamped() {
        byte[] bytes = previousRestamped;
        if (bytes == null) {
            ObjectNode copy = previousRestampedTree();
            try {
                bytes = mapper.writeValueAsBytes(copy);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a stored object failed to serialize", e);
            }
            previousRestamped = bytes;
        }
        return bytes;
    }
}
