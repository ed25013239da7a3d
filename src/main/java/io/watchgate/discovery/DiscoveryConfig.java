package io.watchgate.discovery;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What the gateway tells clients about itself. */
@ConfigMapping(prefix = "watchgate.discovery")
public interface DiscoveryConfig {

    /**
     * The Kubernetes version whose API the gateway speaks, reported by {@code /version}: clients such as kubectl
     * compare it with their own and choose features by it.
     */
    @WithDefault("1.33.0")
    String kubernetesVersion();
}
