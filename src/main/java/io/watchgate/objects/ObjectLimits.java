package io.watchgate.objects;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "watchgate.objects")
public interface ObjectLimits {

    /**
     * The largest object a write may leave (estimated serialized size, its managedFields included), so that
     * repeated patches cannot grow one object without bound, nor the record of who owns its fields double it.
     */
    @WithDefault("3145728")
    long maxBytes();
}
