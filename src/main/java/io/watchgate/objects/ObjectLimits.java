package io.watchgate.objects;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "watchgate.objects")
public interface ObjectLimits {

    /**
     * The largest object an update or patch may leave (estimated serialized size), so that repeated patches
     * cannot grow one object without bound. Creates are bounded by the request body limit.
     */
    @WithDefault("3145728")
    long maxBytes();
}
