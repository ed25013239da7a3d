package io.watchgate.objects;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "watchgate.events")
public interface EventConfig {

    /**
     * How long an Event stays after it was last written, as kube-apiserver's {@code --event-ttl}; 0 keeps events
     * until they are deleted.
     */
    @WithDefault("1h")
    Duration ttl();
}
