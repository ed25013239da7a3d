package io.watchgate.watch.stream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How streams of many watches ({@code /streams}) are bounded; each of their watches is bounded as a single one. */
@ConfigMapping(prefix = "watchgate.streams")
public interface StreamConfig {

    /** Watches one stream may carry; a request for more is refused with 400. Each counts as a watch of the server. */
    @WithDefault("100")
    int maxWatches();

    /**
     * A stream that asked to coalesce ({@code coalesce=true}) keeps, while its client is behind, the latest change of
     * at most this many objects (and {@code watchgate.watch.max-backlog-bytes} of them); past either it is ended, as
     * any stream whose client falls behind.
     */
    @WithDefault("10000")
    int maxCoalescedObjects();

    /**
     * Watch messages a WebSocket stream's client may send a second, after a burst of {@link #maxWatches()}: each may
     * cost a snapshot of a collection, for a message of a hundred bytes. One more is refused with a 429 ERROR.
     */
    @WithDefault("10")
    double watchMessagesPerSecond();
}
