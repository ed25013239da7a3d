package io.watchgate.memory;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.OptionalLong;

/**
 * The one memory budget that bounds what the server keeps for others: frames, stalled watchers, history, writes in
 * flight and the working memory of writes being computed.
 */
@ConfigMapping(prefix = "watchgate.memory")
public interface MemoryConfig {

    /**
     * The budget in bytes; unset, it is {@link #budgetHeapFraction()} of the maximum heap. The current objects are
     * not counted in it (they are the data, not what clients make the server keep), hence a fraction below one.
     */
    OptionalLong budgetBytes();

    /** The budget, when {@link #budgetBytes()} is unset, as a fraction of the maximum heap ({@code -Xmx}). */
    @WithDefault("0.5")
    double budgetHeapFraction();

    /**
     * The part of the budget the cache of encoded watch events may fill before its oldest frames are dropped
     * (they are encoded again if a watcher still needs them).
     */
    @WithDefault("0.25")
    double frameCacheFraction();

    /** What a write refused for want of memory is told to wait before trying again. */
    @WithDefault("1")
    int retryAfterSeconds();
}
