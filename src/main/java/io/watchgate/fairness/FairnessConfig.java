package io.watchgate.fairness;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * What one user may take of the server, so that no caller starves the others (kube-apiserver's priority and fairness
 * has the same aim). Members of {@code system:masters} are exempt, as kube exempts them. 0 turns a limit off; dev mode
 * and tests, where every request is the same anonymous user, turn them all off.
 */
@ConfigMapping(prefix = "watchgate.fairness")
public interface FairnessConfig {

    /** Requests of one user being served at once, watches apart. */
    @WithDefault("100")
    int maxRequestsInflightPerUser();

    /** Watches one user may have open at once. */
    @WithDefault("1000")
    int maxWatchesPerUser();

    /** Writes one user may send per second, on average. */
    @WithDefault("200")
    double mutatingRequestsPerSecondPerUser();

    /** Writes one user may send at once after a quiet spell, above the rate. */
    @WithDefault("400")
    int mutatingBurstPerUser();

    /**
     * The first users refused get a metric label of their own; users after them share the label {@code other}, so
     * that the metrics stay bounded however many users there are.
     */
    @WithDefault("20")
    int labelledUsers();
}
