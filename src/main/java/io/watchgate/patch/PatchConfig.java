package io.watchgate.patch;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Bounds on the work one patch may ask for, beyond its size. */
@ConfigMapping(prefix = "watchgate.patch")
public interface PatchConfig {

    /** The default of {@link #maxJsonPatchElementMoves()}: well under a second of one core (measured: 15,000 million moves took 18 s of CPU). */
    long DEFAULT_MAX_JSON_PATCH_ELEMENT_MOVES = 200_000_000L;

    /**
     * A JSON patch whose insertions and removals in arrays would shift more array elements than this in all is
     * refused with 413, before the operation that passes the bound is applied.
     */
    @WithDefault("" + DEFAULT_MAX_JSON_PATCH_ELEMENT_MOVES)
    long maxJsonPatchElementMoves();
}
