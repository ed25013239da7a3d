package io.watchgate.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "watchgate.event-loop")
public interface EventLoopConfig {

    /**
     * How often Vert.x looks for a thread stuck in one task longer than {@code quarkus.vertx.max-event-loop-execute-time}
     * (and logs it). Vert.x checks every second by default, which misses blocks shorter than that limit plus a second;
     * the hostile tests check at a fraction of their 100 ms limit.
     */
    @WithDefault("1s")
    Duration blockedCheckInterval();
}
