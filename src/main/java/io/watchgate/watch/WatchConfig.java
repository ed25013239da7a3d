package io.watchgate.watch;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How watches are served: their lifetime, bookmarks, heartbeats and the bounds that protect the server. */
@ConfigMapping(prefix = "watchgate.watch")
public interface WatchConfig {

    /** A watch without {@code timeoutSeconds} is ended after a random duration between this and {@link #maxDuration()}. */
    @WithDefault("30m")
    Duration minDuration();

    @WithDefault("60m")
    Duration maxDuration();

    /** How often a watch that allows bookmarks (and every Server-Sent Events watch) gets one. */
    @WithDefault("60s")
    Duration bookmarkInterval();

    /** How often a Server-Sent Events stream gets a comment line, so that proxies keep it open. */
    @WithDefault("15s")
    Duration sseHeartbeat();

    /** The reconnection delay suggested to EventSource clients ({@code retry:}). */
    @WithDefault("3s")
    Duration sseRetry();

    /**
     * A watcher that has stopped reading is ended once this many events for it have gone past it; it re-watches
     * from its last resourceVersion. Until then it costs only its connection's buffers.
     */
    @WithDefault("1000")
    int maxBacklog();

    /**
     * And once those events total more than this many bytes (as serialized objects): a client that far behind
     * relists rather than replay them, and the server counts the queue of a stalled watcher against its memory
     * budget until then.
     */
    @WithDefault("67108864")
    long maxBacklogBytes();

    /** Watches served at once; more are refused with 429 and Retry-After. */
    @WithDefault("150000")
    int maxWatchers();

    /** How many events a watcher sends, or keys of its initial snapshot it reads, before its loop serves others. */
    @WithDefault("256")
    int batchSize();

    /**
     * And how many bytes of frames, at most (one frame at least): a few large objects take as long to write as
     * thousands of small ones, and a client's kernel buffers may take megabytes before it looks full.
     */
    @WithDefault("1048576")
    long batchBytes();
}
