package io.watchgate.watch.stream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How streams of many watches ({@code /streams}) are bounded; each of their watches is bounded as a single one. */
@ConfigMapping(prefix = "watchgate.streams")
public interface StreamConfig {

    /** Watches one stream may carry; a request for more is refused with 400. Each counts as a watch of the server. */
    @WithDefault("100")
    int maxWatches();
}
