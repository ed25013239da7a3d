package io.watchgate.watch;

import io.vertx.core.buffer.Buffer;
import io.watchgate.objects.Selection;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.KeyRange;

/**
 * Which form of a committed event a watch is sent, if any: Kubernetes' rules for a selector that an object enters
 * or leaves (kube-apiserver's cacher, {@code convertToWatchEvent}). An object that starts to match arrives as
 * ADDED, one that stops matching leaves as DELETED in its previous state, and events of objects that match neither
 * before nor after are not the watch's business. A pure function of the event and the watch's range and selection.
 */
public final class EventFilter {

    private EventFilter() {
    }

    /**
     * The frame a watch of {@code spec} gets for {@code encoded} in {@code format}, or null when the event is not its
     * business: what its watcher writes, live or from history.
     */
    static Buffer frameFor(EncodedEvent encoded, WatchSpec spec, WireFormat format) {
        EncodedEvent.Variant variant = variantFor(encoded.event(), spec.range(), spec.selection());
        return variant == null ? null : encoded.frame(format, variant, spec.rendering());
    }

    /** How history replays to a single watch ({@link HistoryReplay}): the frame of each event that is its business. */
    static HistoryReplay.Framing replaying(WatchSpec spec, WireFormat format) {
        return (encoded, send) -> {
            Buffer frame = frameFor(encoded, spec, format);
            if (frame == null) {
                return 0;
            }
            send.accept(frame);
            return 1;
        };
    }

    /** @return the variant of {@code event} the watch is sent, or null when it is sent nothing */
    public static EncodedEvent.Variant variantFor(ChangeEvent event, KeyRange range, Selection selection) {
        if (!range.contains(event.key())) {
            return null;
        }
        if (selection.isEverything()) {
            return EncodedEvent.Variant.AS_COMMITTED;
        }
        boolean before = event.previous() != null && selection.matches(event.previous().tree());
        return switch (event.type()) {
            case ADDED -> selection.matches(event.object().tree()) ? EncodedEvent.Variant.AS_COMMITTED : null;
            case DELETED -> before ? EncodedEvent.Variant.AS_COMMITTED : null;
            case MODIFIED -> {
                boolean now = selection.matches(event.object().tree());
                yield before && now ? EncodedEvent.Variant.AS_COMMITTED
                        : now ? EncodedEvent.Variant.ADDED
                        : before ? EncodedEvent.Variant.DELETED_PREVIOUS
                        : null;
            }
        };
    }
}
