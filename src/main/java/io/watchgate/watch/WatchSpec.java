package io.watchgate.watch;

import io.watchgate.objects.Selection;
import io.watchgate.selector.FieldSelector;
import io.watchgate.store.KeyRange;
import io.watchgate.store.ObjectKey;
import io.watchgate.types.ResourceType;
import java.time.Duration;

/**
 * What one watch asks for, checked and resolved from its request.
 *
 * @param initialEvents   start with a synthetic ADDED for every matching object of one snapshot
 * @param resourceVersion the client's revision, or {@link #UNSET}. With {@code initialEvents} the snapshot is
 *                        not older than it; without, the watch delivers exactly the changes after it.
 * @param initialEventsEnd end the initial events with the {@code k8s.io/initial-events-end} bookmark
 * @param timeout         when the server ends the stream, or null for the server's randomized default
 * @param rendering       how event objects are shown ({@link ObjectRendering#AS_STORED} but for Table watches)
 * @param grant           whether its user may still watch this (see {@link WatchGrant})
 */
public record WatchSpec(ResourceType type, KeyRange range, Selection selection, boolean initialEvents,
        long resourceVersion, boolean bookmarks, boolean initialEventsEnd, Duration timeout,
        ObjectRendering rendering, WatchGrant grant) {

    public static final long UNSET = -1;

    /** This watch, going on only while {@code grant} holds. */
    public WatchSpec grantedBy(WatchGrant grant) {
        return new WatchSpec(type, range, selection, initialEvents, resourceVersion, bookmarks, initialEventsEnd,
                timeout, rendering, grant);
    }

    /**
     * The one object this watch can see, when its field selector names it (a kubelet's watch of its node or of a
     * secret, a legacy {@code /watch/.../name} path) within one namespace or of a cluster-scoped type; null
     * otherwise. The loop then finds the watch by the object's key instead of offering it every event of the
     * resource, as kube-apiserver's watch cache finds such watches by its name trigger.
     */
    public ObjectKey onlyObject() {
        if (type.namespaced() && range.namespace() == null) {
            return null;
        }
        for (FieldSelector.Term term : selection.fields().terms()) {
            if (term.equal() && term.label().equals("metadata.name")) {
                return new ObjectKey(range.resource(), type.namespaced() ? range.namespace() : "", term.value());
            }
        }
        return null;
    }

    /** Its one namespace, when it watches a namespaced resource within one and not one object; null otherwise. */
    public KeyRange onlyNamespace() {
        return type.namespaced() && range.namespace() != null && onlyObject() == null ? range : null;
    }

    /** The revision the store must have reached before this watch can start. */
    public long requiredRevision() {
        return Math.max(resourceVersion, 0);
    }

    /** When the server ends this watch: after its timeout, or after a random duration between the configured bounds. */
    public Duration lifetime(WatchConfig config) {
        return lifetime(timeout, config);
    }

    /** After {@code timeout}, or when null after a random duration between the configured bounds. */
    public static Duration lifetime(Duration timeout, WatchConfig config) {
        if (timeout != null) {
            return timeout;
        }
        long min = config.minDuration().toMillis();
        long max = Math.max(min, config.maxDuration().toMillis());
        return Duration.ofMillis(min + (long) (Math.random() * (max - min)));
    }
}
