package io.watchgate.watch.stream;

import io.vertx.core.buffer.Buffer;
import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import io.watchgate.watch.EncodedEvent;
import io.watchgate.watch.EventFilter;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.WatchSink;
import io.watchgate.watch.WireFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What a coalescing stream keeps while its client is behind: for each object of each watch, only how the client saw
 * it before ({@code had}) and its latest change, so that it costs one entry per object, however many events go by.
 * Once the client reads again, each entry becomes one event, in revision order and marked {@code coalesced}: ADDED
 * for an object the client did not have, MODIFIED for one it had, DELETED for one that is gone, and nothing for one
 * that came and went. The final state an informer needs, without the events between, and without a relist.
 * Loop thread only, as its stream.
 */
final class Coalescer {

    private record Key(StreamedWatch watch, ObjectKey object) {
    }

    /** One object of one watch: whether its client had it when it fell behind, and its latest change since. */
    private static final class Entry implements Comparable<Entry> {
        private final Key key;
        private final boolean had;
        private final long sequence;
        private EncodedEvent latest;
        private EncodedEvent.Variant variant;

        Entry(Key key, boolean had, long sequence) {
            this.key = key;
            this.had = had;
            this.sequence = sequence;
        }

        boolean present() {
            return variant != EncodedEvent.Variant.DELETED_PREVIOUS && latest.event().type() != EventType.DELETED;
        }

        long bytes() {
            return (variant == EncodedEvent.Variant.DELETED_PREVIOUS ? latest.event().previous() : latest.event()
                    .object()).json().length;
        }

        @Override
        public int compareTo(Entry other) {
            int byRevision = Long.compare(latest.revision(), other.latest.revision());
            return byRevision != 0 ? byRevision : Long.compare(sequence, other.sequence);
        }
    }

    private final int maxObjects;
    private final long maxBytes;
    private final Map<Key, Entry> entries = new HashMap<>();
    private final TreeSet<Entry> byRevision = new TreeSet<>();
    private long sequence;
    private long bytes;

    Coalescer(int maxObjects, long maxBytes) {
        this.maxObjects = maxObjects;
        this.maxBytes = maxBytes;
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The bytes of the objects kept. */
    long bytes() {
        return bytes;
    }

    /** Drops what was kept for a watch that ended. */
    void forget(StreamedWatch watch) {
        entries.values().removeIf(entry -> {
            if (entry.key.watch() != watch) {
                return false;
            }
            byRevision.remove(entry);
            bytes -= entry.bytes();
            return true;
        });
    }

    /**
     * Keeps {@code event} in place of what came before for the same objects of {@code watches}.
     *
     * @return why the stream must end now (too many objects or bytes kept), or null
     */
    String add(EncodedEvent event, Iterable<StreamedWatch> watches) {
        for (StreamedWatch watch : watches) {
            if (watch.hasEnded() || watch.awaitsSnapshot() || event.revision() <= watch.since()) {
                continue; // a watch whose initial events are due gets its state from them
            }
            EncodedEvent.Variant variant = EventFilter.variantFor(event.event(), watch.spec().range(),
                    watch.spec().selection());
            if (variant == null) {
                continue;
            }
            Key key = new Key(watch, event.event().key());
            Entry entry = entries.get(key);
            if (entry == null) {
                boolean had = variant == EncodedEvent.Variant.DELETED_PREVIOUS
                        || (variant == EncodedEvent.Variant.AS_COMMITTED && event.event().type() != EventType.ADDED);
                entry = new Entry(key, had, sequence++);
                entries.put(key, entry);
            } else {
                byRevision.remove(entry);
                bytes -= entry.bytes();
            }
            entry.latest = event;
            entry.variant = variant;
            byRevision.add(entry);
            bytes += entry.bytes();
        }
        if (entries.size() > maxObjects) {
            return "more than " + maxObjects + " objects changed while it was behind";
        }
        if (bytes > maxBytes) {
            return "the objects that changed while it was behind hold more than " + maxBytes + " bytes";
        }
        return null;
    }

    /** Why sending what was kept stopped. */
    enum Stop { CLIENT_FULL, BATCH_SENT, ALL_SENT }

    /**
     * Sends what was kept, oldest first, until the client's buffers fill or {@code batchBytes} are sent (the rest on
     * another turn), or all of it is.
     */
    Stop send(StreamFrames format, Consumer<Buffer> send, WatchSink sink, WatchLoop loop, long batchBytes) {
        long bytes = 0;
        while (!isEmpty()) {
            List<Buffer> frames = takeOldest(format);
            for (Buffer frame : frames) {
                send.accept(frame);
                bytes += frame.length();
            }
            loop.eventsSent(frames.size());
            loop.coalescedSent(frames.size());
            if (sink.writeQueueFull()) {
                return Stop.CLIENT_FULL;
            }
            if (bytes >= batchBytes) {
                return Stop.BATCH_SENT;
            }
        }
        return Stop.ALL_SENT;
    }

    /**
     * Takes the oldest entries, those of the oldest revision kept, as the frames that tell their client (none for an
     * object that came and went); the last carries the revision as its id.
     */
    private List<Buffer> takeOldest(StreamFrames format) {
        long revision = byRevision.first().latest.revision();
        List<Entry> taken = new ArrayList<>(1);
        while (!byRevision.isEmpty() && byRevision.first().latest.revision() == revision) {
            Entry entry = byRevision.pollFirst();
            entries.remove(entry.key);
            bytes -= entry.bytes();
            if (!entry.key.watch().hasEnded() && (entry.had || entry.present())) {
                taken.add(entry);
            }
        }
        List<Buffer> frames = new ArrayList<>(taken.size());
        for (int i = 0; i < taken.size(); i++) {
            Entry entry = taken.get(i);
            String type = !entry.present() ? "DELETED" : entry.had ? "MODIFIED" : "ADDED";
            long id = i == taken.size() - 1 ? revision : WireFormat.NO_ID;
            frames.add(format.coalesced(id, type, entry.key.watch(),
                    entry.latest.object(entry.variant, entry.key.watch().spec().rendering())));
        }
        return frames;
    }
}
