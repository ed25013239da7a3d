package io.watchgate.store;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How much history the store keeps for reads at older revisions and for watches that resume. */
@ConfigMapping(prefix = "watchgate.history")
public interface HistoryConfig {

    /** At most this many revisions are retained; older ones are compacted as new ones arrive. */
    @WithDefault("100000")
    int maxRevisions();

    /**
     * At most about this many bytes of events are retained, counted as their objects take in memory: serialized
     * and as trees ({@link ObjectSize}). The oldest revisions are compacted first; the newest is always kept.
     */
    @WithDefault("268435456")
    long maxBytes();

    /** Revisions older than this are compacted in the background (the newest state is always kept). */
    @WithDefault("5m")
    Duration maxAge();

    /** How often the background compactor looks for revisions past {@link #maxAge()}. */
    @WithDefault("10s")
    Duration compactionInterval();
}
