package io.watchgate.watch.http;

import io.watchgate.objects.ListOptions;
import io.watchgate.objects.Selection;
import io.watchgate.request.QueryFlags;
import io.watchgate.status.ApiException;
import io.watchgate.store.KeyRange;
import io.watchgate.types.ResourceType;
import io.watchgate.watch.ObjectRendering;
import io.watchgate.watch.WatchGrant;
import io.watchgate.watch.WatchSpec;
import java.time.Duration;
import java.util.function.Function;

/** Reads a watch's query parameters as kube-apiserver validates them for a watch. */
final class WatchRequests {

    private static final long MAX_TIMEOUT_SECONDS = 100L * 365 * 24 * 3600;

    private WatchRequests() {
    }

    /**
     * @param query       the query parameters (null when absent)
     * @param name        the object a legacy {@code /watch/} path names, or null
     * @param lastEventId the EventSource {@code Last-Event-ID} header, or null
     * @param rendering   how the events' objects are shown
     */
    static WatchSpec parse(ResourceType type, String namespace, String name, Function<String, String> query,
            String lastEventId, ObjectRendering rendering) {
        String fieldSelector = query.apply("fieldSelector");
        if (name != null) {
            fieldSelector = (fieldSelector == null || fieldSelector.isEmpty() ? "" : fieldSelector + ",")
                    + "metadata.name=" + name;
        }
        Selection selection = Selection.parse(type, query.apply("labelSelector"), fieldSelector);
        String rv = emptyToNull(query.apply("resourceVersion"));
        long revision = rv == null ? WatchSpec.UNSET : ListOptions.parseRevision(rv);
        String match = emptyToNull(query.apply("resourceVersionMatch"));
        String sendInitialEvents = emptyToNull(query.apply("sendInitialEvents"));
        boolean bookmarks = QueryFlags.bool("allowWatchBookmarks", query.apply("allowWatchBookmarks"));
        if (match != null) {
            if (!match.equals(ListOptions.NOT_OLDER_THAN) && !match.equals(ListOptions.EXACT)) {
                throw ApiException.badRequest("resourceVersionMatch: Unsupported value: \"" + match
                        + "\": supported values: \"NotOlderThan\"");
            }
            if (sendInitialEvents == null) {
                throw ApiException.badRequest("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden "
                        + "for watch unless sendInitialEvents is provided");
            }
        }
        boolean initialEvents;
        if (sendInitialEvents != null) {
            if (!ListOptions.NOT_OLDER_THAN.equals(match)) {
                throw ApiException.badRequest("resourceVersionMatch: Forbidden: sendInitialEvents requires setting "
                        + "resourceVersionMatch to NotOlderThan");
            }
            initialEvents = QueryFlags.bool("sendInitialEvents", sendInitialEvents);
            if (initialEvents && !bookmarks) {
                // the bookmark that ends the initial events is how the client knows it has them all
                throw ApiException.badRequest("allowWatchBookmarks: Forbidden: sendInitialEvents requires setting "
                        + "allowWatchBookmarks to true");
            }
            if (!initialEvents && revision == 0) {
                revision = WatchSpec.UNSET; // "any" resourceVersion: start from the newest
            }
        } else {
            // unset or "0": the state first, as synthetic ADDED events; x: exactly the changes after x
            initialEvents = revision <= 0;
        }
        if (revision == 0) {
            revision = WatchSpec.UNSET;
        }
        if (lastEventId != null && !lastEventId.isBlank()) {
            // an EventSource reconnecting: resume exactly after the last event it saw. A stream's watch that began
            // after that (its own resourceVersion later than the stream's) has seen nothing before its own start.
            long resumed = ListOptions.parseRevision(lastEventId.trim());
            revision = initialEvents ? resumed : Math.max(revision, resumed);
            initialEvents = false;
        }
        Duration timeout = timeout(query.apply("timeoutSeconds"));
        return new WatchSpec(type, new KeyRange(type.storageResource(), type.namespaced() ? namespace : null), selection,
                initialEvents, revision, bookmarks, initialEvents && sendInitialEvents != null, timeout, rendering,
                WatchGrant.ALWAYS);
    }

    static Duration timeout(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            long seconds = Long.parseLong(value);
            if (seconds >= 0) {
                // a timer cannot wait longer than a long's milliseconds; a century is forever enough
                return seconds == 0 ? null : Duration.ofSeconds(Math.min(seconds, MAX_TIMEOUT_SECONDS));
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("timeoutSeconds: Invalid value: \"" + value
                + "\": must be a non-negative integer");
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
