package io.watchgate.garbagecollector;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * How replicas sharing etcd elect the one that collects garbage: kube-controller-manager's
 * {@code --leader-elect-lease-duration}, {@code --leader-elect-renew-deadline} and {@code --leader-elect-retry-period},
 * with their defaults.
 */
@ConfigMapping(prefix = "watchgate.garbage-collector")
public interface CollectorConfig {

    /** How long another replica waits, from when it last saw the lease renewed, before it takes the lease. */
    @WithDefault("15s")
    Duration leaseDuration();

    /** How long the holder goes on collecting without renewing its lease; shorter than the lease. */
    @WithDefault("10s")
    Duration renewDeadline();

    /** How often each replica tries to take or renew the lease. */
    @WithDefault("2s")
    Duration retryPeriod();
}
