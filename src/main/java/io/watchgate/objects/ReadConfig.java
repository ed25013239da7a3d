package io.watchgate.objects;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "watchgate.reads")
public interface ReadConfig {

    /** How long a read for a resourceVersion the store has not reached waits before answering 504. */
    @WithDefault("3s")
    Duration resourceVersionWait();
}
