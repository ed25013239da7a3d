package io.watchgate.fairness;

import io.watchgate.authz.RbacOn;
import java.util.HashMap;
import java.util.Map;

/** The production-like server ({@link RbacOn}) with small per-user shares, small enough to reach in a test. */
public class FairnessOn extends RbacOn {

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.putAll(Map.of("watchgate.fairness.max-watches-per-user", "2",
                "watchgate.fairness.max-requests-inflight-per-user", "50",
                "watchgate.fairness.mutating-requests-per-second-per-user", "0.2",
                "watchgate.fairness.mutating-burst-per-user", "2",
                "watchgate.fairness.labelled-users", "1"));
        return config;
    }
}
