package io.watchgate.api;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Limits and timings of the resource API. */
@ConfigMapping(prefix = "watchgate.api")
public interface ApiConfig {

    /** Request bodies larger than this are refused with 413 (Kubernetes' default is 3 MiB). */
    @WithDefault("3145728")
    int maxBodyBytes();
}
